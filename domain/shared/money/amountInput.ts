// Amounts as requests carry them: a positive integer of minor units as a string (the spec's REST
// amounts), bounded, or a major-unit decimal string (the sandbox simulations), parsed exactly.
import { z } from 'zod'

export const AMOUNT_INPUT_LIMITS = {
  /** Digits of a minor-unit amount: 10^30 is beyond any real payment and inside the ledger's bound. */
  maxMinorDigits: 30,
  maxDecimalLength: 40,
} as const

export const positiveMinorAmount = z
  .string()
  .max(AMOUNT_INPUT_LIMITS.maxMinorDigits)
  .regex(/^[1-9]\d*$/, 'a positive integer of minor units, as a string (no sign, decimals or leading zeros)')
  .describe('Integer minor units as a string ("4000" is 40.00 USD)')

export const majorDecimalAmount = z
  .string()
  .max(AMOUNT_INPUT_LIMITS.maxDecimalLength)
  .regex(/^\d+(\.\d+)?$/, 'a positive decimal in major units, such as "125.50"')
  .describe('Amount in major units, as a decimal string ("125.50"); more decimals than the currency has are refused')
