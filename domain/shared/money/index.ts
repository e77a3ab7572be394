// Money for every slice: BigInt minor units inside, the spec's wire object outside, one currency
// table, exact decimal parsing, named rounding, exact fees and allocation.
export { ALLOCATE_LIMITS, allocate } from './allocate.js'
export {
  AMOUNT_BOUND_NOTE,
  AMOUNT_INPUT_LIMITS,
  majorDecimalAmount,
  minorAmountOrZero,
  positiveMinorAmount,
  withAmountBound,
} from './amountInput.js'
export {
  AMOUNT_BOUNDS,
  type AmountField,
  MAX_AMOUNT_MINOR_DIGITS,
  amountBoundProblems,
  assertAmountsWithinBound,
  assertBalanceWithinCeiling,
  describeBound,
  maxAmountMinor,
  maxBalanceMinor,
} from './bounds.js'
export { CRYPTO_EXPONENTS, CURRENCY_LIMITS, exponentOf, isKnownCurrency, requireExponent } from './currencies.js'
export { DECIMAL_LIMITS, formatDecimal, parseDecimal } from './decimal.js'
export { FEE_LIMITS, feeFromBps, feeFromFraction } from './fees.js'
export {
  type Money,
  type MoneyWire,
  type ParsedMoney,
  add,
  formatMajor,
  fromWire,
  money,
  moneyWire,
  parseMajor,
  subtract,
  toWire,
} from './money.js'
export { ROUNDING_MODES, type RoundingMode, divideRounded } from './rounding.js'
