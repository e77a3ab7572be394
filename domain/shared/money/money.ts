// Money: BigInt minor units inside, the spec's wire object outside ({ currency, exponent, value,
// displayValue }, value a string of minor units). The currency decides the exponent, from the one
// table (currencies.ts), so a wire object cannot carry a wrong one unnoticed.
import { z } from 'zod'
import { requireExponent } from './currencies.js'
import { formatDecimal, parseDecimal } from './decimal.js'

export type Money = { readonly currency: string; readonly amountMinor: bigint }

export const moneyWire = z
  .object({
    currency: z.string().describe('Currency code: ISO 4217, or a crypto asset such as USDC'),
    exponent: z.number().int().describe('Minor-unit decimal places of the currency'),
    value: z
      .string()
      .regex(/^-?\d+$/)
      .describe('Integer minor units, as a string ("4000" with exponent 2 is 40.00)'),
    displayValue: z.string().describe('The same amount in major units, as a decimal string'),
  })
  .describe('A money amount')

export type MoneyWire = z.infer<typeof moneyWire>

export function money(currency: string, amountMinor: bigint): Money {
  requireExponent(currency)
  return { currency, amountMinor }
}

export function toWire(m: Money): MoneyWire {
  const exponent = requireExponent(m.currency)
  return { currency: m.currency, exponent, value: m.amountMinor.toString(), displayValue: formatDecimal(m.amountMinor, exponent) }
}

/** Reads a wire object back; refuses one whose exponent or display value disagrees with its value. */
export function fromWire(wire: MoneyWire): Money {
  const exponent = requireExponent(wire.currency)
  if (wire.exponent !== exponent) throw new RangeError(`${wire.currency} has exponent ${exponent}, not ${wire.exponent}`)
  const amountMinor = BigInt(wire.value)
  if (formatDecimal(amountMinor, exponent) !== wire.displayValue)
    throw new RangeError(`displayValue ${wire.displayValue} does not match value ${wire.value}`)
  return { currency: wire.currency, amountMinor }
}

export type ParsedMoney = { ok: true; money: Money } | { ok: false; reason: string }

/** A major-unit decimal string ("12.34") in `currency`, exactly; more decimals than it has are refused. */
export function parseMajor(text: string, currency: string, options: { allowNegative?: boolean } = {}): ParsedMoney {
  const parsed = parseDecimal(text, requireExponent(currency), options)
  return parsed.ok ? { ok: true, money: { currency, amountMinor: parsed.minor } } : parsed
}

export const formatMajor = (m: Money): string => formatDecimal(m.amountMinor, requireExponent(m.currency))

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new RangeError(`Cannot combine ${a.currency} and ${b.currency}`)
}

export function add(a: Money, b: Money): Money {
  sameCurrency(a, b)
  return { currency: a.currency, amountMinor: a.amountMinor + b.amountMinor }
}

export function subtract(a: Money, b: Money): Money {
  sameCurrency(a, b)
  return { currency: a.currency, amountMinor: a.amountMinor - b.amountMinor }
}
