// The sandbox's reference rates: mid-market major units of each currency per US dollar, fixed so
// every test and integrator sees the same numbers (design.md: rates from a fixed table). A rate
// between two currencies is the exact ratio of their entries, a rational number, never a float.
import { divideRounded } from '../shared/money/index.js'

export const REFERENCE_RATE_PROVIDER = 'SANDBOX_REFERENCE'

/** Major units per 1 USD, as exact decimals. Stablecoins are pegged 1:1. */
const PER_USD: Readonly<Record<string, string>> = {
  USD: '1',
  USDC: '1',
  USDT: '1',
  USAT: '1',
  // The fiat currencies of the FX corridors: USD, EUR, GBP, MXN and every <CCY>_FX_PAYOUT currency.
  AED: '3.6725',
  AUD: '1.52',
  BHD: '0.376',
  BOB: '6.91',
  BRL: '5.4',
  CLP: '940',
  CNY: '7.24',
  COP: '3950',
  DOP: '59.1',
  EGP: '48.3',
  EUR: '0.92',
  GBP: '0.79',
  HKD: '7.8',
  IDR: '15800',
  INR: '83.2',
  JPY: '150',
  KRW: '1380',
  KWD: '0.307',
  MXN: '17.1',
  MYR: '4.7',
  PEN: '3.75',
  PHP: '56.5',
  PYG: '7450',
  QAR: '3.64',
  SAR: '3.75',
  SGD: '1.34',
  THB: '36.2',
  TRY: '32.5',
  TWD: '32.3',
  VND: '25400',
  CAD: '1.36',
}

/** A rate as an exact fraction: destination major units per source major unit = num / den. */
export type Rational = { num: bigint; den: bigint }

function decimal(text: string): Rational {
  const [whole, fraction = ''] = text.split('.')
  return { num: BigInt(whole! + fraction), den: 10n ** BigInt(fraction.length) }
}

export const hasReferenceRate = (currency: string): boolean => currency in PER_USD

/** Destination per source, or undefined when either currency has no reference rate. */
export function referenceRate(source: string, destination: string): Rational | undefined {
  const s = PER_USD[source]
  const d = PER_USD[destination]
  if (s === undefined || d === undefined) return undefined
  const a = decimal(s)
  const b = decimal(d)
  return { num: b.num * a.den, den: b.den * a.num }
}

/** The rational as a decimal string with at most `places` fraction digits (rounded half up), trailing zeros dropped. */
export function rationalToDecimal(r: Rational, places: number): string {
  const scaled = divideRounded(r.num * 10n ** BigInt(places), r.den, 'HALF_UP')
  const text = scaled.toString().padStart(places + 1, '0')
  const whole = text.slice(0, text.length - places)
  const fraction = text.slice(text.length - places).replace(/0+$/, '')
  return fraction.length > 0 ? `${whole}.${fraction}` : whole
}
