// How long the sandbox waits between the steps of a leg on each rail or chain (submitted, in
// transit, settled): a few seconds by default so a sandbox transfer completes while a developer
// watches, overridable per rail for tests and demos, and bounded so no leg sleeps for days.
import { z } from 'zod'
import { CHAINS, type Chain } from '../shared/chain/chains.js'
import { SANDBOX_RAILS, type SandboxRail } from './railCatalog.js'

export const SANDBOX_DELAY_LIMITS = {
  /** Longest wait between two steps of a leg: 24 hours (the SWIFT untracked auto-completion). */
  maxStepMs: 24 * 60 * 60 * 1000,
} as const

export type SandboxRailOrChain = SandboxRail | Chain

/** Instant rails and the internal balance 1 s; batch and RTGS rails 2 s; ACH and the SWIFT chain of banks 3 s; chains by block time. */
export const SANDBOX_STEP_DELAYS_MS = {
  ACH: 3000,
  ACH_SAME_DAY: 2000,
  WIRE: 2000,
  FEDWIRE: 2000,
  FED_NOW: 1000,
  RTP: 1000,
  SWIFT: 3000,
  SEPA: 2000,
  SEPA_INSTANT: 1000,
  TIPS: 1000,
  FASTER_PAYMENTS: 1000,
  BACS: 3000,
  CHAPS: 2000,
  SPEI: 1000,
  PIX: 1000,
  BALANCE: 1000,
  ETHEREUM: 2000,
  BASE: 1000,
  POLYGON: 1000,
  ARBITRUM: 1000,
  ROBINHOOD: 1000,
  SOLANA: 1000,
  TRON: 1000,
  BITCOIN: 3000,
} as const satisfies Record<SandboxRailOrChain, number>

const RAILS_AND_CHAINS = [...SANDBOX_RAILS, ...CHAINS] as const

export const sandboxStepDelaySchema = z.strictObject({
  stepMs: z.number().int().min(0).max(SANDBOX_DELAY_LIMITS.maxStepMs).describe('Milliseconds between two steps of a leg'),
})

/** Per-rail (or chain) overrides of the sandbox step delay, for example `{ ACH: { stepMs: 50 } }`. */
export const sandboxDelayOverridesSchema = z
  .partialRecord(z.enum(RAILS_AND_CHAINS), sandboxStepDelaySchema)
  .describe('Sandbox step delays per rail or chain')
export type SandboxDelayOverrides = z.infer<typeof sandboxDelayOverridesSchema>

/** The wait between two steps of a leg on `rail`: the override when given, else the default. */
export function sandboxStepDelayMs(rail: SandboxRailOrChain, overrides: SandboxDelayOverrides = {}): number {
  return overrides[rail]?.stepMs ?? SANDBOX_STEP_DELAYS_MS[rail]
}
