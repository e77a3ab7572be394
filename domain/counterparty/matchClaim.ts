// Which counterparty answers a match key (matchKey.ts): a stream per key, each event naming the
// counterparty that claims the key. An upsert claims the key for a new counterparty with the
// revision it read, so of two concurrent upserts with one key only one claims it, and the other
// finds the winner's counterparty: never two. When the claimed counterparty is deleted, the next
// upsert claims the key again for a new one (deleted counterparties are never matched).
import { z } from 'zod'
import type { Decider } from '../decider.js'

export const CounterpartyMatchClaimed = z.object({
  matchKey: z.string(),
  organizationId: z.string(),
  customerId: z.string(),
  counterpartyId: z.string(),
  /** The deleted counterparty this claim replaces; null for the key's first claim. */
  replacing: z.string().nullable(),
  claimedAt: z.string(),
})

export const counterpartyMatchEventSchemas = { CounterpartyMatchClaimed } as const

export type CounterpartyMatchEvent = { type: 'CounterpartyMatchClaimed'; data: z.infer<typeof CounterpartyMatchClaimed> }

export type CounterpartyMatchState = { claimedBy: string | null }

export type ClaimCounterpartyMatch = {
  type: 'ClaimCounterpartyMatch'
  matchKey: string
  organizationId: string
  customerId: string
  counterpartyId: string
  /** The claim this one supersedes, as the caller read it (null: the key was unclaimed). */
  replacing: string | null
  now: string
}

/** Claims only when the key still stands as the caller read it; otherwise nothing (another claim won). */
export const counterpartyMatchDecider: Decider<CounterpartyMatchState, ClaimCounterpartyMatch, CounterpartyMatchEvent> = {
  initialState: () => ({ claimedBy: null }),
  decide(command, state) {
    if (state.claimedBy !== command.replacing) return []
    const { type: _t, now, ...data } = command
    return [{ type: 'CounterpartyMatchClaimed', data: { ...data, claimedAt: now } }]
  },
  evolve: (_state, event) => ({ claimedBy: event.data.counterpartyId }),
}
