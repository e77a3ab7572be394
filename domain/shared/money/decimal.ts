// Exact decimal strings to and from integer minor units: "12.34" at exponent 2 is 1234n. The
// parser accepts only plain decimals (no exponent notation, no spaces, no thousands separators)
// and refuses more fraction digits than the currency has, so nothing is ever rounded silently.

export const DECIMAL_LIMITS = {
  /** Digits before the point: 10^30 major units is far beyond any amount and keeps strings short. */
  maxIntegerDigits: 30,
} as const

const DECIMAL = /^(-)?(0|[1-9]\d*)(?:\.(\d+))?$/

export type DecimalParse = { ok: true; minor: bigint } | { ok: false; reason: string }

/** Parses a major-unit decimal string exactly into minor units at `exponent`. */
export function parseDecimal(text: string, exponent: number, options: { allowNegative?: boolean } = {}): DecimalParse {
  const match = DECIMAL.exec(text)
  if (!match) return { ok: false, reason: 'must be a decimal number such as 12.34 (no exponent, spaces or separators)' }
  const [, sign, whole = '0', fraction = ''] = match
  if (sign && !options.allowNegative) return { ok: false, reason: 'must not be negative' }
  if (whole.length > DECIMAL_LIMITS.maxIntegerDigits)
    return { ok: false, reason: `must have at most ${DECIMAL_LIMITS.maxIntegerDigits} digits before the decimal point` }
  if (fraction.length > exponent)
    return {
      ok: false,
      reason:
        exponent === 0 ? 'must be a whole number for this currency' : `must have at most ${exponent} decimal places for this currency`,
    }
  const minor = BigInt(whole + fraction.padEnd(exponent, '0'))
  return { ok: true, minor: sign ? -minor : minor }
}

/** Renders minor units as a major-unit decimal with exactly `exponent` fraction digits ("-0.05"). */
export function formatDecimal(minor: bigint, exponent: number): string {
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0')
  const whole = digits.slice(0, digits.length - exponent)
  const fraction = digits.slice(digits.length - exponent)
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`
}
