// Spending windows: calendar UTC days and months, when each resets, what an amount is checked
// against in order, and the spec's denial body (amounts as decimals; per-transaction omits used and remaining).
import t from 'tap'
import { calendarWindowsAt, denialBody, spendDenial, usageAt, withSpend } from '../../../domain/agent/spendWindows.js'

const limits = { currency: 'USD', perTransaction: '10000', perDay: '25000', perMonth: '40000' }
const at = new Date('2026-11-28T23:59:59.999Z')

t.test('calendar windows, UTC', async (t) => {
  t.same(calendarWindowsAt(at), {
    day: '2026-11-28',
    dayResetsAt: '2026-11-29T00:00:00.000Z',
    month: '2026-11',
    monthResetsAt: '2026-12-01T00:00:00.000Z',
  })
  t.match(calendarWindowsAt(new Date('2026-12-31T12:00:00Z')), {
    dayResetsAt: '2027-01-01T00:00:00.000Z',
    monthResetsAt: '2027-01-01T00:00:00.000Z',
  })
  t.match(calendarWindowsAt(new Date('2028-02-29T00:00:00Z')), { day: '2028-02-29', dayResetsAt: '2028-03-01T00:00:00.000Z' }, 'a leap day')
  t.match(calendarWindowsAt(new Date('2026-11-29T00:00:00.000Z')), { day: '2026-11-29' }, 'midnight starts the next day')
})

t.test('usage resets with its window', async (t) => {
  const usage = { day: '2026-11-28', usedDay: 7n, month: '2026-11', usedMonth: 9n }
  t.same(usageAt(usage, at), usage)
  t.same(usageAt(usage, new Date('2026-11-29T00:00:00Z')), { day: '2026-11-29', usedDay: 0n, month: '2026-11', usedMonth: 9n })
  t.same(usageAt(usage, new Date('2026-12-01T00:00:00Z')), { day: '2026-12-01', usedDay: 0n, month: '2026-12', usedMonth: 0n })
  t.same(usageAt(null, at), { day: '2026-11-28', usedDay: 0n, month: '2026-11', usedMonth: 0n })
})

t.test('an amount is checked per transaction, then per day, then per month', async (t) => {
  t.equal(spendDenial(limits, null, 10_000n, at), undefined, 'exactly the per-transaction limit fits')
  t.match(spendDenial(limits, null, 10_001n, at), { window: 'PER_TRANSACTION', limitMinor: 10_000n, usedMinor: null, resetsAt: null })
  const usage = { day: '2026-11-28', usedDay: 20_000n, month: '2026-11', usedMonth: 20_000n }
  t.equal(spendDenial(limits, usage, 5_000n, at), undefined, 'exactly the daily limit fits')
  t.match(spendDenial(limits, usage, 5_001n, at), {
    window: 'PER_DAY',
    limitMinor: 25_000n,
    usedMinor: 20_000n,
    remainingMinor: 5_000n,
    attemptedMinor: 5_001n,
    resetsAt: '2026-11-29T00:00:00.000Z',
  })
  const tomorrow = new Date('2026-11-29T08:00:00Z')
  const month = { day: '2026-11-28', usedDay: 25_000n, month: '2026-11', usedMonth: 35_000n }
  t.match(spendDenial(limits, month, 6_000n, tomorrow), { window: 'PER_MONTH', usedMinor: 35_000n, remainingMinor: 5_000n })
  t.equal(spendDenial(limits, month, 5_000n, tomorrow), undefined, "yesterday's daily use is gone, the month's stays")
  const over = { day: '2026-11-28', usedDay: 30_000n, month: '2026-11', usedMonth: 30_000n }
  t.match(spendDenial(limits, over, 1n, at), { remainingMinor: 0n }, 'limits lowered below use: nothing remains, never negative')
})

t.test('reservations and releases count in the window they were made in', async (t) => {
  const made = new Date('2026-11-28T10:00:00Z')
  const one = withSpend(null, 8_000n, made, made)
  t.same(one, { day: '2026-11-28', usedDay: 8_000n, month: '2026-11', usedMonth: 8_000n })
  t.same(withSpend(one, -8_000n, made, at), { ...one, usedDay: 0n, usedMonth: 0n }, 'released the same day')
  const nextDay = new Date('2026-11-29T01:00:00Z')
  t.same(
    withSpend(one, -8_000n, made, nextDay),
    { day: '2026-11-29', usedDay: 0n, month: '2026-11', usedMonth: 0n },
    "a release the next day frees the month, not the new day's use",
  )
  t.same(withSpend(one, -9_000n, made, made).usedDay, 0n, 'never below zero')
})

t.test("the spec's denial body", async (t) => {
  const perTransaction = spendDenial(limits, null, 12_345n, at)!
  t.same(denialBody('USD', perTransaction), {
    code: 'per_transaction_limit_exceeded',
    message: "The transfer of 123.45 USD is over the agent's per-transaction limit of 100.00 USD",
    window: 'PER_TRANSACTION',
    limit: '100.00',
    attemptedAmount: '123.45',
    currency: 'USD',
  })
  const daily = spendDenial(
    { ...limits, currency: 'USDC' },
    { day: '2026-11-28', usedDay: 20_000n, month: '2026-11', usedMonth: 0n },
    9_000n,
    at,
  )!
  t.match(denialBody('USDC', daily), {
    code: 'per_day_limit_exceeded',
    window: 'PER_DAY',
    limit: '0.025000',
    used: '0.020000',
    remaining: '0.005000',
    attemptedAmount: '0.009000',
    currency: 'USDC',
    resetsAt: '2026-11-29T00:00:00.000Z',
  })
})
