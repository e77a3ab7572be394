// Amounts as requests carry them: a positive integer of minor units as a string (the spec's REST
// amounts), bounded, or a major-unit decimal string (the sandbox simulations), parsed exactly. The
// length checks here are format rules (400); the bound of each amount's own currency (bounds.ts) is
// checked where the currency is known (422 amount_too_large), and every description says so.
import { z } from 'zod'
import { AMOUNT_BOUNDS, MAX_AMOUNT_MINOR_DIGITS, maxAmountMinor } from './bounds.js'

export const AMOUNT_INPUT_LIMITS = {
  /** Digits of a minor-unit amount: those of the largest bound of any currency (bounds.ts); longer is never an amount. */
  maxMinorDigits: MAX_AMOUNT_MINOR_DIGITS,
  maxDecimalLength: 40,
} as const

/** What every money field's description ends with: the bound, per currency, and the answer above it. */
export const AMOUNT_BOUND_NOTE =
  `At most 10^${AMOUNT_BOUNDS.maxAmountMajorPower} major units of its currency, in minor units ` +
  `${['USD', 'JPY', 'USDC', 'BTC'].map((c) => `${c} ${maxAmountMinor(c)}`).join(', ')}; above it 422 amount_too_large`

/** A field description followed by the bound. */
export const withAmountBound = (description: string): string => `${description}. ${AMOUNT_BOUND_NOTE}`

export const positiveMinorAmount = z
  .string()
  .max(AMOUNT_INPUT_LIMITS.maxMinorDigits)
  .regex(/^[1-9]\d*$/, 'a positive integer of minor units, as a string (no sign, decimals or leading zeros)')
  .describe(withAmountBound('Integer minor units as a string ("4000" is 40.00 USD)'))

/** A minor-unit amount that may be zero (a fixed fee). */
export const minorAmountOrZero = z
  .string()
  .max(AMOUNT_INPUT_LIMITS.maxMinorDigits)
  .regex(/^(0|[1-9]\d*)$/, 'an integer of minor units, as a string (no sign, decimals or leading zeros)')
  .describe(withAmountBound('Integer minor units as a string, zero or more'))

export const majorDecimalAmount = z
  .string()
  .max(AMOUNT_INPUT_LIMITS.maxDecimalLength)
  .regex(/^\d+(\.\d+)?$/, 'a positive decimal in major units, such as "125.50"')
  .describe(withAmountBound('Amount in major units, as a decimal string ("125.50"); more decimals than the currency has are refused'))
