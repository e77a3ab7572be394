// The funding fee of a draw, computed exactly. It accrues per started hour since the draw at
// fundingFeeBpsPerHour basis points of the drawn principal, capped at feeCapHours hours:
//   fee(draw, at) = round_HALF_UP(principal x bps / 10 000 x min(startedHours, feeCapHours))
//   startedHours  = max(1, ceil((at - drawnAt) / 1 hour))
// bps is a decimal string ("1.5") read as an exact fraction: no float touches the amount, and the
// one rounding (half up to the minor unit) happens at the end. A draw repaid exactly one hour after
// it was taken pays one hour; one millisecond later, two.
import { divideRounded, parseDecimal } from '../shared/money/index.js'
import { HOUR_MS, LIQUIDITY_LIMITS } from './limits.js'

/** The fee terms a draw is taken under (kept with the draw: a later reconfiguration does not change them). */
export type FeeTerms = { fundingFeeBpsPerHour: string; feeCapHours: number }

export const FEE_ROUNDING = 'HALF_UP' as const

/** bps as an integer count of 10^-fractionDigits basis points; undefined when not a plain decimal in range. */
export function parseFeeBps(text: string): bigint | undefined {
  const parsed = parseDecimal(text, LIQUIDITY_LIMITS.feeBpsFractionDigits)
  if (!parsed.ok) return undefined
  const max = LIQUIDITY_LIMITS.maxFeeBpsPerHour * 10n ** BigInt(LIQUIDITY_LIMITS.feeBpsFractionDigits)
  return parsed.minor <= max ? parsed.minor : undefined
}

/** The hours a draw has been open at `at`, each started hour counted whole; at least 1. */
export function startedHours(drawnAt: string, at: string): number {
  const elapsedMs = Date.parse(at) - Date.parse(drawnAt)
  return Math.max(1, Math.ceil(elapsedMs / HOUR_MS))
}

/** The fee a draw of `principalMinor` has accrued at `at` (minor units). */
export function accruedFee(draw: { principalMinor: bigint; drawnAt: string; terms: FeeTerms }, at: string): bigint {
  const bps = parseFeeBps(draw.terms.fundingFeeBpsPerHour)
  if (bps === undefined) throw new RangeError(`not a fee rate: ${draw.terms.fundingFeeBpsPerHour}`)
  const hours = BigInt(Math.min(startedHours(draw.drawnAt, at), draw.terms.feeCapHours))
  const scale = 10n ** BigInt(LIQUIDITY_LIMITS.feeBpsFractionDigits)
  return divideRounded(draw.principalMinor * bps * hours, 10_000n * scale, FEE_ROUNDING)
}
