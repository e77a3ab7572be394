// The one bound on amounts, per currency (issue 24, D5 and D7). Set in major units, so it means the
// same in every currency, and turned into minor units by the currency's exponent:
// - an amount (any money field of a request: a transfer's amounts and fixed fee, a hold, a fund-in,
//   a deposit, a route's minimum, a credit line's limit, a draw, a repayment) is at most 10^12 major
//   units: USD 10^14 minor, JPY 10^12, USDC 10^18, BTC 10^20, ETH 10^30;
// - a balance (available + committed of one account in one currency) is at most 10^15 major units,
//   checked where a credit is decided, so no sequence of accepted credits grows past it.
// Why these: 10^12 USD (a trillion) is beyond any single payment (Fedwire's own ceiling is 10^10 USD)
// while no real amount comes near it; at the largest exponent (ETH's 18) it is 10^30 minor units,
// exactly the ledger's bound on one movement (LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor) and the
// pricing search's, so an accepted amount fits every later step; converted at any rate of the rate
// table it stays inside them too. A balance of 10^15 major units is a thousand largest amounts;
// at ETH's exponent 10^33 minor units, inside the read models' numeric(40, 0) with room for sums.
import { type ErrorDetail, invalid } from '../../errors.js'
import { CURRENCY_LIMITS, exponentOf } from './currencies.js'
import { formatDecimal } from './decimal.js'
import type { Money } from './money.js'

export const AMOUNT_BOUNDS = {
  /** An amount is at most 10^this major units of its currency. */
  maxAmountMajorPower: 12,
  /** A balance (available + committed) is at most 10^this major units of its currency. */
  maxBalanceMajorPower: 15,
} as const

const powerOfTen = (power: number) => 10n ** BigInt(power)

/** The largest amount in `currency`, in minor units; undefined for a currency the table does not know. */
export function maxAmountMinor(currency: string): bigint | undefined {
  const exponent = exponentOf(currency)
  return exponent === undefined ? undefined : powerOfTen(AMOUNT_BOUNDS.maxAmountMajorPower + exponent)
}

/** The largest balance in `currency`, in minor units; undefined for a currency the table does not know. */
export function maxBalanceMinor(currency: string): bigint | undefined {
  const exponent = exponentOf(currency)
  return exponent === undefined ? undefined : powerOfTen(AMOUNT_BOUNDS.maxBalanceMajorPower + exponent)
}

/** Digits of the largest amount of any currency (ETH's 10^30: 31): a longer minor-unit string is never an amount. */
export const MAX_AMOUNT_MINOR_DIGITS = powerOfTen(AMOUNT_BOUNDS.maxAmountMajorPower + CURRENCY_LIMITS.maxExponent).toString().length

/** "1000000000000.00 USD (100000000000000 minor units)": a bound as a caller reads it. */
export function describeBound(currency: string, boundMinor: bigint): string {
  const exponent = exponentOf(currency) ?? 0
  return `${formatDecimal(boundMinor, exponent)} ${currency} (${boundMinor} minor units)`
}

/**
 * A money field of a request: its name as the error names it, its amount in the currency it is in,
 * and the value as sent when it is not the minor units (a major-unit decimal).
 */
export type AmountField = { field: string; money: Money; sent?: string }

/** One detail per field above the bound of its currency (a currency the table does not know is another check's refusal). */
export function amountBoundProblems(fields: readonly AmountField[]): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  for (const { field, money, sent } of fields) {
    const bound = maxAmountMinor(money.currency)
    if (bound !== undefined && money.amountMinor > bound)
      problems.push({
        field,
        message: `must be at most ${describeBound(money.currency, bound)}`,
        value: sent ?? money.amountMinor.toString(),
      })
  }
  return problems
}

/** 422 amount_too_large naming each field above the bound of its currency, and the bound; nothing when all are within. */
export function assertAmountsWithinBound(fields: readonly AmountField[]): void {
  const problems = amountBoundProblems(fields)
  if (problems.length > 0)
    throw invalid(
      'amount_too_large',
      `An amount is above the largest the service takes (10^${AMOUNT_BOUNDS.maxAmountMajorPower} major units)`,
      problems,
    )
}

/** 422 balance_limit_exceeded when a credit would bring a balance (available + committed) above the ceiling of its currency. */
export function assertBalanceWithinCeiling(accountId: string, balanceAfter: Money): void {
  const ceiling = maxBalanceMinor(balanceAfter.currency)
  if (ceiling === undefined || balanceAfter.amountMinor <= ceiling) return
  throw invalid('balance_limit_exceeded', `The credit would bring account ${accountId} above the largest balance it may hold`, [
    {
      field: 'amount',
      message: `the balance may be at most ${describeBound(balanceAfter.currency, ceiling)}; it would be ${balanceAfter.amountMinor}`,
    },
  ])
}
