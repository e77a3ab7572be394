// The rails' business calendars (domain/rails/businessCalendars.ts): the Federal Reserve's 11
// holidays without the Friday before a Saturday holiday, TARGET2's six closing days from Easter,
// England and Wales bank holidays with substitutes, Mexico's and Brazil's banking holidays.
import t from 'tap'
import { BUSINESS_CALENDARS, holidaysOf, isBusinessDay } from '../../../domain/rails/index.js'

const sorted = (days: ReadonlySet<string>): string[] => [...days].sort()

t.test('the Federal Reserve observes exactly its 11 holidays, Sunday ones on Monday, Saturday ones not on Friday', async (t) => {
  t.same(sorted(holidaysOf('FEDERAL_RESERVE', 2026)), [
    '2026-01-01',
    '2026-01-19',
    '2026-02-16',
    '2026-05-25',
    '2026-06-19',
    '2026-07-04',
    '2026-09-07',
    '2026-10-12',
    '2026-11-11',
    '2026-11-26',
    '2026-12-25',
  ])
  t.ok(isBusinessDay('FEDERAL_RESERVE', '2026-07-03'), 'Fri 3 Jul 2026 is open (Independence Day is a Saturday)')
  t.ok(isBusinessDay('FEDERAL_RESERVE', '2027-12-24'), 'Fri 24 Dec 2027 is open (Christmas is a Saturday)')
  t.ok(isBusinessDay('FEDERAL_RESERVE', '2027-12-31'), 'Fri 31 Dec 2027 is open (New Year 2028 is a Saturday)')
  t.notOk(isBusinessDay('FEDERAL_RESERVE', '2027-07-05'), 'Mon 5 Jul 2027 is closed (Independence Day is a Sunday)')
  t.notOk(
    isBusinessDay('FEDERAL_RESERVE', '2029-11-12'),
    'Mon 12 Nov 2029 is closed (Veterans Day is a Sunday; date-holidays has no substitute)',
  )
  t.notOk(isBusinessDay('FEDERAL_RESERVE', '2040-01-02'), 'Mon 2 Jan 2040 is closed (New Year is a Sunday)')
  t.ok(isBusinessDay('FEDERAL_RESERVE', '2027-06-18'), 'Fri 18 Jun 2027 is open (Juneteenth is a Saturday)')
})

t.test('every year from 2025 to 2040 has the 11 Fed holidays, plus a Monday for each on a Sunday', async (t) => {
  for (let year = 2025; year <= 2040; year++) {
    const days = [...holidaysOf('FEDERAL_RESERVE', year)]
    const sundays = days.filter((day) => new Date(`${day}T12:00:00Z`).getUTCDay() === 0).length
    const fridays = days.filter((day) => new Date(`${day}T12:00:00Z`).getUTCDay() === 5 && day.slice(5) !== '06-19')
    t.equal(days.length, 11 + sundays, `${year}: ${days.length} days`)
    t.ok(
      fridays.every((day) => ['01-01', '07-04', '11-11', '12-25'].includes(day.slice(5))),
      `${year}: no Friday stands in for a Saturday`,
    )
  }
})

t.test('no observances leak into the Fed calendar', async (t) => {
  t.ok(isBusinessDay('FEDERAL_RESERVE', '2026-11-27'), 'the day after Thanksgiving is open')
  t.ok(isBusinessDay('FEDERAL_RESERVE', '2026-12-24'), 'Christmas Eve is open')
  t.ok(isBusinessDay('FEDERAL_RESERVE', '2026-04-15'), 'Tax Day is open')
})

t.test('TARGET2 closes on New Year, Good Friday, Easter Monday, 1 May, 25 and 26 December only', async (t) => {
  t.same(sorted(holidaysOf('TARGET2', 2027)), ['2027-01-01', '2027-03-26', '2027-03-29', '2027-05-01', '2027-12-25', '2027-12-26'])
  t.same(sorted(holidaysOf('TARGET2', 2026)), ['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-01', '2026-12-25', '2026-12-26'])
  t.ok(isBusinessDay('TARGET2', '2026-12-28'), 'Mon 28 Dec 2026 is open: TARGET2 never moves a weekend closing day')
  t.ok(isBusinessDay('TARGET2', '2025-10-03'), 'German Unity Day (Fri 3 Oct 2025) is no TARGET2 holiday')
  t.ok(isBusinessDay('TARGET2', '2027-05-06'), 'Ascension Day is open')
})

t.test('England and Wales bank holidays with substitute days', async (t) => {
  t.notOk(isBusinessDay('UK_ENGLAND_WALES', '2026-12-28'), 'Mon 28 Dec 2026 substitutes Boxing Day (a Saturday)')
  t.notOk(isBusinessDay('UK_ENGLAND_WALES', '2026-08-31'), 'the summer bank holiday')
  t.notOk(isBusinessDay('UK_ENGLAND_WALES', '2027-03-29'), 'Easter Monday')
  t.ok(isBusinessDay('UK_ENGLAND_WALES', '2026-12-29'), 'Tue 29 Dec 2026 is open')
})

t.test('Mexican and Brazilian banking holidays', async (t) => {
  t.notOk(isBusinessDay('MEXICO_BANKING', '2026-11-16'), 'Revolution Day, third Monday of November')
  t.notOk(isBusinessDay('MEXICO_BANKING', '2026-11-02'), 'Day of the Dead is a bank holiday')
  t.notOk(isBusinessDay('BRAZIL_BANKING', '2027-02-08'), 'Carnival Monday')
  t.notOk(isBusinessDay('BRAZIL_BANKING', '2027-05-27'), 'Corpus Christi')
  t.ok(isBusinessDay('BRAZIL_BANKING', '2027-02-11'), 'the Thursday after Carnival is open')
})

t.test('weekends are closed on every calendar but the 24/7 one', async (t) => {
  for (const calendar of BUSINESS_CALENDARS) {
    t.equal(isBusinessDay(calendar, '2026-11-28'), calendar === 'ALWAYS_OPEN', `${calendar} on a Saturday`)
    t.equal(isBusinessDay(calendar, '2026-11-29'), calendar === 'ALWAYS_OPEN', `${calendar} on a Sunday`)
  }
  t.ok(isBusinessDay('ALWAYS_OPEN', '2026-12-25'), 'the 24/7 calendar is open on Christmas')
})

t.test('a year is computed once and then looked up', async (t) => {
  t.equal(holidaysOf('FEDERAL_RESERVE', 2031), holidaysOf('FEDERAL_RESERVE', 2031), 'the same set, not a recomputation')
  t.throws(() => holidaysOf('TARGET2', 20260), RangeError, 'a typo year is refused')
  t.throws(() => isBusinessDay('TARGET2', 'tomorrow'), RangeError, 'a non-date is refused')
})
