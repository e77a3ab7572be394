// The rails' schedules (domain/rails/schedule.ts): the next cut-off strictly after an instant on a
// business day of the rail's calendar, in its zone, and the estimated settlement of a submission
// then; across weekends, holidays and DST changes, and for 24/7 rails without cut-offs.
import fc from 'fast-check'
import { DateTime } from 'luxon'
import t from 'tap'
import { RAIL_CATALOG, SANDBOX_RAILS, type SandboxRail, isBusinessDay, railFacts, railSchedule } from '../../../domain/rails/index.js'
import { localDateOf } from '../../../domain/rails/schedule.js'

const at = (rail: SandboxRail, now: string, currency?: string) => railSchedule(rail, new Date(now), currency ? { currency } : {})
const expectSchedule = (zone: string | null, nextCutoffAt: string | null, estimatedSettlementAt: string) => ({
  cutoffTimezone: zone,
  nextCutoffAt,
  estimatedSettlementAt,
})
const NY = 'America/New_York'
const BERLIN = 'Europe/Berlin'
const LONDON = 'Europe/London'

t.test('ACH: a weekday before and after the 16:45 ET cut-off, and exactly at it', async (t) => {
  // Tue 24 Nov 2026, 10:00 EST: cut-off 16:45 EST today, settles 08:30 EST on Wed.
  t.same(at('ACH', '2026-11-24T15:00:00Z'), expectSchedule(NY, '2026-11-24T21:45:00.000Z', '2026-11-25T13:30:00.000Z'))
  // 17:00 EST: Wednesday's cut-off; the next business day after Wed is Fri (Thu 26 is Thanksgiving).
  t.same(at('ACH', '2026-11-24T22:00:00Z'), expectSchedule(NY, '2026-11-25T21:45:00.000Z', '2026-11-27T13:30:00.000Z'))
  t.equal(at('ACH', '2026-11-24T21:45:00Z').nextCutoffAt, '2026-11-25T21:45:00.000Z', 'a submission at the cut-off misses it')
  t.equal(at('ACH', '2026-11-24T21:44:59.999Z').nextCutoffAt, '2026-11-24T21:45:00.000Z', 'a millisecond before makes it')
})

t.test('same-day ACH: each Nacha window settles the same day; Friday evening rolls to Monday', async (t) => {
  t.same(at('ACH_SAME_DAY', '2026-11-24T14:00:00Z'), expectSchedule(NY, '2026-11-24T15:30:00.000Z', '2026-11-24T18:00:00.000Z'))
  t.same(at('ACH_SAME_DAY', '2026-11-24T17:00:00Z'), expectSchedule(NY, '2026-11-24T19:45:00.000Z', '2026-11-24T22:00:00.000Z'))
  t.same(at('ACH_SAME_DAY', '2026-11-24T20:00:00Z'), expectSchedule(NY, '2026-11-24T21:45:00.000Z', '2026-11-24T23:00:00.000Z'))
  // Fri 20 Nov 2026, 17:00 EST: Monday's first window.
  t.same(at('ACH_SAME_DAY', '2026-11-20T22:00:00Z'), expectSchedule(NY, '2026-11-23T15:30:00.000Z', '2026-11-23T18:00:00.000Z'))
  // Saturday morning too.
  t.same(at('ACH_SAME_DAY', '2026-11-21T15:00:00Z'), expectSchedule(NY, '2026-11-23T15:30:00.000Z', '2026-11-23T18:00:00.000Z'))
})

t.test('Federal Reserve holidays: Thanksgiving and Christmas 2026 are skipped', async (t) => {
  t.same(at('ACH', '2026-11-26T17:00:00Z'), expectSchedule(NY, '2026-11-27T21:45:00.000Z', '2026-11-30T13:30:00.000Z'), 'on Thanksgiving')
  // Thu 24 Dec 17:00 EST: Fri 25 is closed, so Monday's cut-off, settling Tuesday.
  t.same(at('ACH', '2026-12-24T22:00:00Z'), expectSchedule(NY, '2026-12-28T21:45:00.000Z', '2026-12-29T13:30:00.000Z'), 'Christmas Eve')
  t.same(at('ACH_SAME_DAY', '2026-12-25T15:00:00Z').nextCutoffAt, '2026-12-28T15:30:00.000Z', 'on Christmas Day')
})

t.test(
  'Fedwire: settles on submission while open (21:00 ET the evening before to the 18:00 ET cut-off), else at the next opening',
  async (t) => {
    t.same(at('FEDWIRE', '2026-11-24T15:00:00Z'), expectSchedule(NY, '2026-11-24T23:00:00.000Z', '2026-11-24T15:00:00.000Z'), 'open: now')
    // Thu 19 Nov 22:00 EST: Friday's business day opened at 21:00.
    t.same(at('FEDWIRE', '2026-11-20T03:00:00Z'), expectSchedule(NY, '2026-11-20T23:00:00.000Z', '2026-11-20T03:00:00.000Z'))
    // Fri 20 Nov 20:00 EST: Monday's day opens Sunday 21:00 EST.
    t.same(at('FEDWIRE', '2026-11-21T01:00:00Z'), expectSchedule(NY, '2026-11-23T23:00:00.000Z', '2026-11-23T02:00:00.000Z'))
    // Wed 25 Nov 18:30 EST: Thanksgiving closed, Friday's day opens Thursday 21:00 EST.
    t.same(at('WIRE', '2026-11-25T23:30:00Z'), expectSchedule(NY, '2026-11-27T23:00:00.000Z', '2026-11-27T02:00:00.000Z'))
  },
)

t.test('SEPA on TARGET2 days: Good Friday and Easter Monday 2027, Christmas 2026, 1 May', async (t) => {
  // Thu 25 Mar 2027 18:00 CET: Fri 26 and Mon 29 closed; Tue 30 17:00 CEST (DST began on the 28th); D+1 09:00 CEST.
  t.same(at('SEPA', '2027-03-25T17:00:00Z'), expectSchedule(BERLIN, '2027-03-30T15:00:00.000Z', '2027-03-31T07:00:00.000Z'))
  // Thu 24 Dec 2026 18:00 CET: 25 and 26 Dec closed (the 26th is a Saturday, not moved), Mon 28 is open.
  t.same(at('SEPA', '2026-12-24T17:00:00Z'), expectSchedule(BERLIN, '2026-12-28T16:00:00.000Z', '2026-12-29T08:00:00.000Z'))
  // Thu 30 Apr 2026 after the cut-off: Fri 1 May closed.
  t.equal(at('SEPA', '2026-04-30T16:00:00Z').nextCutoffAt, '2026-05-04T15:00:00.000Z')
  t.same(
    at('SEPA', '2026-04-30T10:00:00Z'),
    expectSchedule(BERLIN, '2026-04-30T15:00:00.000Z', '2026-05-04T07:00:00.000Z'),
    'D+1 skips 1 May',
  )
})

t.test('UK rails on England and Wales bank holidays: CHAPS and Bacs over Christmas 2026', async (t) => {
  // Thu 24 Dec 18:00 GMT: Fri 25 Christmas, Mon 28 the Boxing Day substitute; CHAPS opens 06:00 on Tue 29.
  t.same(at('CHAPS', '2026-12-24T18:00:00Z'), expectSchedule(LONDON, '2026-12-29T17:40:00.000Z', '2026-12-29T06:00:00.000Z'))
  t.same(at('CHAPS', '2026-12-24T12:00:00Z'), expectSchedule(LONDON, '2026-12-24T17:40:00.000Z', '2026-12-24T12:00:00.000Z'), 'open: now')
  // Bacs: input by 22:30 on the 24th, processing the 29th, in the account the 30th.
  t.same(at('BACS', '2026-12-24T18:00:00Z'), expectSchedule(LONDON, '2026-12-24T22:30:00.000Z', '2026-12-30T06:00:00.000Z'))
})

t.test('DST weeks: New York falls back on 1 Nov 2026, Berlin on 25 Oct 2026', async (t) => {
  // Fri 30 Oct 12:00 EDT (UTC-4): cut-off 16:45 EDT; settles Mon 2 Nov 08:30 EST (UTC-5).
  t.same(at('ACH', '2026-10-30T16:00:00Z'), expectSchedule(NY, '2026-10-30T20:45:00.000Z', '2026-11-02T13:30:00.000Z'))
  // After Friday's cut-off: Monday 16:45 EST.
  t.same(at('ACH', '2026-10-30T21:00:00Z'), expectSchedule(NY, '2026-11-02T21:45:00.000Z', '2026-11-03T13:30:00.000Z'))
  // On the Sunday itself, 01:30 happens twice; the answer is Monday's EST cut-off either way.
  t.equal(at('ACH', '2026-11-01T05:30:00Z').nextCutoffAt, '2026-11-02T21:45:00.000Z')
  t.equal(at('ACH', '2026-11-01T06:30:00Z').nextCutoffAt, '2026-11-02T21:45:00.000Z')
  // Fri 23 Oct 12:00 CEST: 17:00 CEST today; settles Mon 26 Oct 09:00 CET.
  t.same(at('SEPA', '2026-10-23T10:00:00Z'), expectSchedule(BERLIN, '2026-10-23T15:00:00.000Z', '2026-10-26T08:00:00.000Z'))
  t.same(at('SEPA', '2026-10-23T16:00:00Z'), expectSchedule(BERLIN, '2026-10-26T16:00:00.000Z', '2026-10-27T08:00:00.000Z'))
  // Spring forward in New York (14 Mar 2027): Friday EST, Monday EDT.
  t.equal(at('ACH', '2027-03-12T22:00:00Z').nextCutoffAt, '2027-03-15T20:45:00.000Z')
})

t.test('instant rails answer no cut-off and settle on submission, even on a holiday', async (t) => {
  for (const rail of ['FED_NOW', 'RTP', 'SEPA_INSTANT', 'TIPS', 'FASTER_PAYMENTS', 'SPEI', 'PIX', 'BALANCE'] as const) {
    t.same(at(rail, '2026-12-25T03:04:05.678Z'), expectSchedule(null, null, '2026-12-25T03:04:05.678Z'), rail)
  }
})

t.test('SWIFT follows the currency’s settlement system, D+1 at 12:00 local', async (t) => {
  // Tue 24 Nov 2026 10:00 EST in USD: Fedwire's 18:00 ET, settles Wed 12:00 EST.
  t.same(at('SWIFT', '2026-11-24T15:00:00Z'), expectSchedule(NY, '2026-11-24T23:00:00.000Z', '2026-11-25T17:00:00.000Z'))
  t.same(at('SWIFT', '2026-11-24T15:00:00Z', 'USD'), at('SWIFT', '2026-11-24T15:00:00Z'), 'USD is the default')
  t.same(at('SWIFT', '2026-11-24T15:00:00Z', 'EUR'), expectSchedule(BERLIN, '2026-11-24T16:00:00.000Z', '2026-11-25T11:00:00.000Z'))
  t.same(at('SWIFT', '2026-11-24T15:00:00Z', 'GBP'), expectSchedule(LONDON, '2026-11-24T17:40:00.000Z', '2026-11-25T12:00:00.000Z'))
  // Mexico: no DST since 2022 (UTC-6); 16 Nov 2026 (Revolution Day, third Monday) is closed.
  t.same(
    at('SWIFT', '2026-11-13T23:40:00Z', 'MXN'),
    expectSchedule('America/Mexico_City', '2026-11-17T23:30:00.000Z', '2026-11-18T18:00:00.000Z'),
  )
  t.equal(at('SWIFT', '2026-11-24T15:00:00Z', 'BRL').cutoffTimezone, 'America/Sao_Paulo')
  t.equal(at('SWIFT', '2026-11-24T15:00:00Z', 'JPY').cutoffTimezone, NY, 'an unmodelled currency clears in New York')
})

t.test('an invalid date is refused', async (t) => {
  t.throws(() => railSchedule('ACH', new Date('not a date')), RangeError)
})

t.test(
  'property: the next cut-off is the first one after now, on a business day, at a window time; settlement is not before now',
  async (t) => {
    const scheduled = SANDBOX_RAILS.filter((rail) => RAIL_CATALOG[rail].windows.length > 0)
    const instant = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 11, 31) })
    fc.assert(
      fc.property(fc.constantFrom(...scheduled), fc.constantFrom('USD', 'EUR', 'GBP', 'MXN', 'BRL'), instant, (rail, currency, now) => {
        const facts = railFacts(rail, currency)
        const schedule = railSchedule(rail, new Date(now), { currency })
        const cutoff = Date.parse(schedule.nextCutoffAt ?? '')
        const local = DateTime.fromMillis(cutoff, { zone: facts.timeZone })
        const cutoffTimes = facts.windows.map((w) => `${w.cutoff.hour}:${w.cutoff.minute}`)
        return (
          schedule.cutoffTimezone === facts.timeZone &&
          cutoff > now &&
          isBusinessDay(facts.calendar, local.toISODate() ?? '') &&
          cutoffTimes.includes(`${local.hour}:${local.minute}`) &&
          railSchedule(rail, new Date(cutoff - 1), { currency }).nextCutoffAt === schedule.nextCutoffAt &&
          Date.parse(schedule.estimatedSettlementAt) >= now
        )
      }),
      { seed: 20261124, numRuns: 400 },
    )
    t.pass('held for 400 instants')
  },
)

t.test('the kept local date is the zone’s date at every instant, in any order, across DST changes', async (t) => {
  const zones = [NY, BERLIN, LONDON, 'America/Sao_Paulo', 'America/Santiago', 'Australia/Lord_Howe', 'UTC']
  const from = Date.parse('2026-03-01T00:00:00Z')
  const span = 400 * 86_400_000
  fc.assert(
    fc.property(
      fc.constantFrom(...zones),
      fc.array(fc.integer({ min: 0, max: span }), { minLength: 1, maxLength: 50 }),
      (zone, offsets) => {
        for (const offset of offsets)
          t.equal(localDateOf(zone, from + offset), DateTime.fromMillis(from + offset, { zone }).toISODate(), `${zone} ${from + offset}`)
      },
    ),
    { numRuns: 200, seed: 20261128 },
  )
})
