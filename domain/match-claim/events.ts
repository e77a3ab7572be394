// Events of match-key claims, version 1 (decider.ts says what a claim is).
import { z } from 'zod'

export const MatchClaimed = z.object({
  matchKey: z.string(),
  organizationId: z.string(),
  customerId: z.string(),
  /** The resource (cp_, ewa_, ...) that answers the key from now on. */
  claimedId: z.string(),
  /** The gone resource this claim replaces; null for the key's first claim. */
  replacing: z.string().nullable(),
  claimedAt: z.string(),
})

export const matchClaimEventSchemas = { MatchClaimed } as const

export type MatchClaimEvent = { type: 'MatchClaimed'; data: z.infer<typeof MatchClaimed> }
