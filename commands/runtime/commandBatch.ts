// Commands queued on one stream, decided together: each in turn on the state the ones before it
// left, so one append (one commit) carries them all (TigerBeetle's batching of a hot account).
// A command the decider refuses is refused alone: the others' events still go in. Pure apart from
// the event ids and validation of toNewEvents; the append and its retries are decideAndAppend.ts's.
import type { Decider, DomainEvent } from '../../domain/decider.js'
import type { NewEvent, Position } from '../../events/store/port.js'
import type { CommandOrigin } from './commandOrigin.js'

export const COMMAND_BATCH_LIMITS = {
  /** Commands decided into one append at most: bounds the append's size and a retry's redo. */
  maxCommands: 100,
} as const

/** One queued command and how its caller is answered. */
export type BatchEntry<State, Command, Event> = {
  decider: Decider<State, Command, Event>
  command: Command
  origin: CommandOrigin
  /** Set once a batch has answered it (its own turn in the queue then only hands the answer back). */
  outcome?: EntryOutcome<State>
}

export type EntryOutcome<State> =
  | { ok: true; state: State; events: DomainEvent[]; eventIds: string[]; position: Position | undefined; repeatedAt?: Position | undefined }
  | { ok: false; error: unknown }

/** A decided entry before its append: its state and events (a position once appended). */
export type Decision<State> = { ok: true; state: State; events: DomainEvent[]; eventIds: string[] } | { ok: false; error: unknown }

export type DecidedBatch<State> = {
  /** Per entry, in order: its state after its own events, or its refusal. */
  decisions: Decision<State>[]
  /** Every accepted entry's events, in order, ready to append. */
  newEvents: NewEvent[]
  state: State
}

/** Decides `entries` in order from `state`; `toNewEvents` turns one command's events into stored ones (it may refuse them). */
export function decideBatch<State, Command, Event extends DomainEvent>(
  entries: readonly BatchEntry<State, Command, Event>[],
  state: State,
  toNewEvents: (events: Event[], origin: CommandOrigin) => NewEvent[],
): DecidedBatch<State> {
  const decisions: Decision<State>[] = []
  const newEvents: NewEvent[] = []
  let current = state
  for (const entry of entries) {
    try {
      const events = entry.decider.decide(entry.command, current)
      const stored = toNewEvents(events, entry.origin)
      const next = events.reduce(entry.decider.evolve, current)
      current = next
      newEvents.push(...stored)
      decisions.push({ ok: true, state: next, events, eventIds: stored.map((e) => e.id) })
    } catch (error) {
      decisions.push({ ok: false, error })
    }
  }
  return { decisions, newEvents, state: current }
}

/** Answers each entry with its decision; the ones that appended events carry the append's position. */
export function settleEntries<State>(
  entries: readonly { outcome?: EntryOutcome<State> }[],
  decisions: readonly Decision<State>[],
  position: Position | undefined,
): void {
  entries.forEach((entry, i) => {
    const d = decisions[i]!
    entry.outcome = d.ok ? { ...d, position: d.events.length > 0 ? position : undefined } : d
  })
}

/** Takes the batch `first` leads from the stream's waiting entries: it and those behind it with the same decider, bounded. */
export function takeBatch<E extends { decider: unknown }>(waiting: E[], first: E): E[] {
  const at = waiting.indexOf(first)
  if (at < 0) return [first]
  let end = at + 1
  while (end < waiting.length && end - at < COMMAND_BATCH_LIMITS.maxCommands && waiting[end]!.decider === first.decider) end++
  return waiting.splice(at, end - at)
}
