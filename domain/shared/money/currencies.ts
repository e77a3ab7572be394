// The one currency table: minor-unit exponents of ISO 4217 currencies (from the standard's own
// list, shipped by the currency-codes package) and of the crypto assets the service carries,
// whose exponents are their tokens' decimals as the spec's rails settle them.
import { data as iso4217 } from 'currency-codes'

/** Crypto assets: USDC and USDT settle in 6 decimals on every chain we list; BTC in satoshis. */
export const CRYPTO_EXPONENTS: Readonly<Record<string, number>> = {
  USDC: 6,
  USDT: 6,
  USAT: 6,
  BTC: 8,
  ETH: 18,
  SOL: 9,
}

// Entries with no minor unit in the standard ("N.A.": precious metals, bond units, the SDR, the
// testing and no-currency codes) are not money the service moves; the package lists them with 0
// digits, so they are left out by name.
const NOT_MONEY = new Set(['XAG', 'XAU', 'XPD', 'XPT', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XTS', 'XUA', 'XXX'])
const ISO_EXPONENTS: ReadonlyMap<string, number> = new Map(
  iso4217.filter((c) => !NOT_MONEY.has(c.code) && Number.isInteger(c.digits)).map((c) => [c.code, c.digits]),
)

export const CURRENCY_LIMITS = {
  /** The largest exponent any listed currency has (ETH's 18). */
  maxExponent: 18,
} as const

/** Minor-unit exponent of a currency code (upper case), or undefined when it is not one we know. */
export function exponentOf(currency: string): number | undefined {
  return CRYPTO_EXPONENTS[currency] ?? ISO_EXPONENTS.get(currency)
}

export const isKnownCurrency = (currency: string): boolean => exponentOf(currency) !== undefined

/** The exponent of a currency that must be known: a caller validated the code already. */
export function requireExponent(currency: string): number {
  const exponent = exponentOf(currency)
  if (exponent === undefined) throw new RangeError(`Unknown currency ${JSON.stringify(currency)}`)
  return exponent
}
