// An organization's FX switches and pricing, and what a new organization starts with. The switches
// are the spec's error conditions: FX on a pair (409 fx_not_enabled_for_pair), fiat pairs (403
// fx_fiat_pairs_not_enabled), the indicative rates operation (403 fx_rates_not_enabled). Pairs are
// enabled by currency patterns (`USDC/EUR`, `USDT/*`, `*/*`), networks and rails follow.
import { z } from 'zod'
import type { Environment } from '../shared/environment.js'
import { SPREAD_LIMITS } from '../fx/indicativeRate.js'
import { fxFiatPairsNotEnabled, fxNotEnabledForPair } from '../fx/errors.js'
import { type FxPair, pairKind } from '../fx/pair.js'

export const FX_SETTINGS_LIMITS = {
  maxPairPatterns: 100,
  /** Customers with pricing of their own per organization. */
  maxCustomerPricings: 1000,
  configuredByMaxLength: 100,
  /** Whole US dollars: the sandbox provider's capacity per corridor. */
  maxCapacityUsd: 1_000_000_000n,
} as const

const PATTERN = /^(\*|[A-Z]{3,5})\/(\*|[A-Z]{3,5})$/

export const pairPatternSchema = z
  .string()
  .regex(PATTERN, 'must be SOURCE/DESTINATION currency codes, either one * (any): USDC/EUR, USDT/*, */*')
  .describe('Currency pattern of enabled pairs: USDC/EUR, USDT/*, */*')

export const spreadBpsSchema = z
  .number()
  .int()
  .min(SPREAD_LIMITS.minBps)
  .max(SPREAD_LIMITS.maxBps)
  .describe(`Spread in whole basis points (${SPREAD_LIMITS.minBps} to ${SPREAD_LIMITS.maxBps}) taken from the mid-market rate`)

export const fxSettingsSchema = z.object({
  fxEnabled: z.boolean().describe('FX on for the organization (off: every pair answers 409 fx_not_enabled_for_pair)'),
  fiatPairsEnabled: z.boolean().describe('Pairs with a fiat side (off: 403 fx_fiat_pairs_not_enabled)'),
  indicativeRatesEnabled: z.boolean().describe('GET /v1/fx/rates (off: 403 fx_rates_not_enabled)'),
  enabledPairs: z.array(pairPatternSchema).max(FX_SETTINGS_LIMITS.maxPairPatterns).describe('Pairs FX is on for, as currency patterns'),
  spreadBps: spreadBpsSchema,
})
export type FxSettings = z.infer<typeof fxSettingsSchema>

/** The sandbox liquidity provider's behaviour for one organization: how tests reach its error codes. */
export const sandboxProviderSchema = z.object({
  available: z.boolean().describe('false: every rate and quote answers 422 fx_quote_temporarily_unavailable'),
  capacityUsd: z
    .string()
    .regex(/^\d{1,10}$/)
    .describe('Capacity of each corridor in whole US dollars; below the corridor minimum answers 422 fx_quote_capacity_exhausted'),
})
export type SandboxProvider = z.infer<typeof sandboxProviderSchema>

/** A new organization: sandbox has FX on for stablecoin pairs, with indicative rates; production has FX off. */
export function defaultFxSettings(environment: Environment): FxSettings {
  return environment === 'sandbox'
    ? { fxEnabled: true, fiatPairsEnabled: false, indicativeRatesEnabled: true, enabledPairs: ['*/*'], spreadBps: 25 }
    : { fxEnabled: false, fiatPairsEnabled: false, indicativeRatesEnabled: false, enabledPairs: [], spreadBps: 25 }
}

export const DEFAULT_SANDBOX_PROVIDER: SandboxProvider = { available: true, capacityUsd: '100000' }

function patternMatches(pattern: string, pair: FxPair): boolean {
  const [source, destination] = pattern.split('/')
  return (source === '*' || source === pair.source.currency) && (destination === '*' || destination === pair.destination.currency)
}

/** Whether FX is on for the organization on this pair (the fiat switch is checked on its own). */
export const pairEnabled = (settings: FxSettings, pair: FxPair): boolean =>
  settings.fxEnabled && settings.enabledPairs.some((p) => patternMatches(p, pair))

/** Whether the organization may quote the pair: FX on for it, and fiat pairs on when it has a fiat side. */
export const pairOffered = (settings: FxSettings, pair: FxPair): boolean =>
  pairEnabled(settings, pair) && (pairKind(pair) === 'STABLECOIN' || settings.fiatPairsEnabled)

/** 403 fx_fiat_pairs_not_enabled, then 409 fx_not_enabled_for_pair: what pairOffered refuses, as the spec's errors. */
export function assertPairOffered(settings: FxSettings, pair: FxPair): void {
  if (pairKind(pair) === 'FIAT' && !settings.fiatPairsEnabled) throw fxFiatPairsNotEnabled()
  if (!pairEnabled(settings, pair)) throw fxNotEnabledForPair(pair)
}
