// Which resource answers a match key: the "find or create" of resources a request may name by
// their content instead of their id (a counterparty by its beneficiary, an external wallet by its
// address). One stream per key, each event naming the resource that claims it. A creation claims
// the key for a new id with the revision it read, so of concurrent creations with one key exactly
// one claim lands and the others find the winner's resource: never two. When the claimed resource
// is gone (deleted, closed), the next creation claims the key again for a new one.
import type { Decider } from '../decider.js'
import type { MatchClaimEvent } from './events.js'

export type MatchClaimState = { claimedBy: string | null }

export type ClaimMatch = {
  type: 'ClaimMatch'
  /** The claim stream's id (matchKeyId). */
  matchKey: string
  organizationId: string
  customerId: string
  claimedId: string
  /** The claim this one supersedes, as the caller read it (null: the key was unclaimed). */
  replacing: string | null
  now: string
}

/** Claims only when the key still stands as the caller read it; otherwise nothing (another claim won). */
export const matchClaimDecider: Decider<MatchClaimState, ClaimMatch, MatchClaimEvent> = {
  initialState: () => ({ claimedBy: null }),
  decide(command, state) {
    if (state.claimedBy !== command.replacing) return []
    const { type: _t, now, ...data } = command
    return [{ type: 'MatchClaimed', data: { ...data, claimedAt: now } }]
  },
  evolve: (_state, event) => ({ claimedBy: event.data.claimedId }),
}
