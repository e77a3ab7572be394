// Sandbox triggers and delays (domain/rails/sandboxTriggers.ts, sandboxDelays.ts,
// achReturnReasons.ts): magic amounts compared as exact decimals, the ACH return reason text, and
// the per-rail step delays with their bounded override schema.
import fc from 'fast-check'
import t from 'tap'
import {
  ACH_RETURN_REASONS,
  SANDBOX_ACH_RETURN_CODE,
  SANDBOX_DELAY_LIMITS,
  SANDBOX_STEP_DELAYS_MS,
  SANDBOX_TRIGGERS,
  SANDBOX_TRIGGER_AMOUNTS,
  achReturnReasonText,
  sandboxDelayOverridesSchema,
  sandboxStepDelayMs,
  sandboxTrigger,
} from '../../../domain/rails/index.js'

t.test('each magic amount triggers its outcome', async (t) => {
  t.equal(sandboxTrigger('13.13'), 'FAIL_BEFORE_FUNDING')
  t.equal(sandboxTrigger('31.31'), 'REVIEW_AFTER_FUNDING')
  t.equal(sandboxTrigger('66.60'), 'RETURN_AFTER_COMPLETION')
  t.equal(sandboxTrigger('99.90'), 'REVERSAL_AFTER_COMPLETION')
  t.equal(sandboxTrigger('24.24'), 'SWIFT_UNTRACKED')
  t.same(
    SANDBOX_TRIGGERS.map((trigger) => sandboxTrigger(SANDBOX_TRIGGER_AMOUNTS[trigger])),
    SANDBOX_TRIGGERS,
    'the table is consistent',
  )
})

t.test('amounts compare as exact decimals, whatever the currency’s exponent', async (t) => {
  t.equal(sandboxTrigger('13.130000'), 'FAIL_BEFORE_FUNDING', 'a 6-decimal stablecoin')
  t.equal(sandboxTrigger('66.6'), 'RETURN_AFTER_COMPLETION')
  t.equal(sandboxTrigger('99.90000000'), 'REVERSAL_AFTER_COMPLETION', 'an 8-decimal BTC amount')
  t.equal(sandboxTrigger('13.131'), null, 'one more digit is another amount')
  t.equal(sandboxTrigger('113.13'), null)
  t.equal(sandboxTrigger('1313'), null, 'a JPY-style whole amount is not 13.13')
  t.equal(sandboxTrigger('013.13'), null, 'not a canonical decimal')
  t.equal(sandboxTrigger('-13.13'), null)
  t.equal(sandboxTrigger('13.13 '), null)
  t.equal(sandboxTrigger(''), null)
  t.equal(sandboxTrigger('100.00'), null, 'an ordinary amount runs normally')
})

t.test('property: padding with zeros never changes the trigger; other amounts trigger nothing', async (t) => {
  const amounts = Object.values(SANDBOX_TRIGGER_AMOUNTS)
  fc.assert(
    fc.property(fc.constantFrom(...amounts), fc.nat(20), (amount, zeros) => sandboxTrigger(amount + '0'.repeat(zeros)) !== null),
    { seed: 20261124, numRuns: 200 },
  )
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }), (minor, exponent) => {
      const digits = minor.toString().padStart(exponent + 1, '0')
      const display = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
      const canonical = display.includes('.') ? display.replace(/0+$/, '').replace(/\.$/, '') : display
      return (sandboxTrigger(display) !== null) === amounts.includes(canonical)
    }),
    { seed: 20261124, numRuns: 1000 },
  )
  t.pass('held')
})

t.test('the ACH return reason text', async (t) => {
  t.equal(SANDBOX_ACH_RETURN_CODE, 'R01')
  t.equal(achReturnReasonText('R01'), 'R01 Insufficient Funds')
  t.equal(ACH_RETURN_REASONS.R03, 'No Account/Unable to Locate Account')
})

t.test('sandbox step delays: fast defaults, overrides per rail, bounded', async (t) => {
  t.equal(sandboxStepDelayMs('ACH'), 3000)
  t.equal(sandboxStepDelayMs('RTP'), 1000)
  t.ok(
    Object.values(SANDBOX_STEP_DELAYS_MS).every((ms) => ms >= 1000 && ms <= 3000),
    'every default is 1 to 3 seconds',
  )
  const overrides = sandboxDelayOverridesSchema.parse({ ACH: { stepMs: 50 }, SOLANA: { stepMs: 0 } })
  t.equal(sandboxStepDelayMs('ACH', overrides), 50)
  t.equal(sandboxStepDelayMs('SOLANA', overrides), 0, 'zero is allowed: step at once')
  t.equal(sandboxStepDelayMs('SEPA', overrides), SANDBOX_STEP_DELAYS_MS.SEPA, 'a rail not overridden keeps its default')
  t.ok(sandboxDelayOverridesSchema.safeParse({ SWIFT: { stepMs: SANDBOX_DELAY_LIMITS.maxStepMs } }).success, '24 h is the most')
  t.notOk(sandboxDelayOverridesSchema.safeParse({ SWIFT: { stepMs: SANDBOX_DELAY_LIMITS.maxStepMs + 1 } }).success, 'more is refused')
  t.notOk(sandboxDelayOverridesSchema.safeParse({ ACH: { stepMs: -1 } }).success, 'negative is refused')
  t.notOk(sandboxDelayOverridesSchema.safeParse({ ACH: { stepMs: 1.5 } }).success, 'a fraction is refused')
  t.notOk(sandboxDelayOverridesSchema.safeParse({ CARRIER_PIGEON: { stepMs: 1 } }).success, 'an unknown rail is refused')
  t.notOk(sandboxDelayOverridesSchema.safeParse({ ACH: { stepMs: 1, extra: true } }).success, 'an unknown field is refused')
})
