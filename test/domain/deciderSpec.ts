// Given/when/then for deciders: spec(decider).given(events).when(command).then(events) or
// .thenThrows(code). Reads like the rule it checks.
import type { Test } from 'tap'
import type { Decider } from '../../domain/decider.js'
import { DomainError } from '../../domain/errors.js'

export function spec<S, C, E>(decider: Decider<S, C, E>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState())
      return {
        when(command: C) {
          return {
            then(t: Test, expected: E[], message?: string) {
              t.same(decider.decide(command, state), expected, message ?? 'decides the expected events')
            },
            thenMatches(t: Test, expected: unknown, message?: string) {
              t.match(decider.decide(command, state), expected, message ?? 'decides matching events')
            },
            thenThrows(t: Test, code: string, message?: string) {
              try {
                decider.decide(command, state)
                t.fail(`expected ${code}`)
              } catch (error) {
                t.ok(error instanceof DomainError, 'a domain error')
                t.equal((error as DomainError).code, code, message ?? `refused with ${code}`)
              }
            },
          }
        },
        state,
      }
    },
  }
}
