// The scheduler's retry delays: exponential from the base, capped, never negative or NaN.
import t from 'tap'
import { retryDelayMs } from '../../commands/scheduler/backoff.js'
import { SCHEDULER_LIMITS } from '../../commands/scheduler/limits.js'

t.test('doubles from the base up to the cap', async (t) => {
  const limits = { backoffBaseMs: 100, backoffMaxMs: 1_000 }
  t.same(
    [1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, limits)),
    [100, 200, 400, 800, 1_000, 1_000],
  )
})

t.test('the named limits: a second after the first failure, at most 15 minutes, whatever the count', async (t) => {
  t.equal(retryDelayMs(1, SCHEDULER_LIMITS), 1_000)
  const last = Math.min(1_000 * 2 ** (SCHEDULER_LIMITS.maxAttempts - 1), 15 * 60_000)
  t.equal(retryDelayMs(SCHEDULER_LIMITS.maxAttempts, SCHEDULER_LIMITS), last)
  t.equal(retryDelayMs(10_000, SCHEDULER_LIMITS), 15 * 60_000, 'no overflow to Infinity')
  t.equal(retryDelayMs(0, SCHEDULER_LIMITS), 1_000, 'a count below one is the first delay')
})
