import t from 'tap'
import { z } from 'zod'
import { isE164 } from '../../domain/customer/rules/phone.js'
import { ageInYears, isIsoDate, isWithinDays } from '../../domain/customer/rules/dates.js'
import { CAPABILITIES, isCapability, type Capability } from '../../domain/customer/rules/capabilities.js'
import { ACCOUNT_PURPOSES, ASSOCIATED_ROLES, EMPLOYMENT_STATUSES, SOURCES_OF_FUNDS } from '../../domain/customer/rules/enums.js'

t.test('isE164', async (t) => {
  for (const ok of ['+14155552671', '+442071838750', '+5511987654321', '+12345678', '+123456789012345', '+861012345678']) {
    t.ok(isE164(ok), ok)
  }
  for (const bad of [
    '14155552671', // no plus
    '+04155552671', // country code cannot start with 0
    '+1234567', // 7 digits
    '+1234567890123456', // 16 digits
    '+1 415 555 2671', // spaces
    '+1-415-555-2671',
    '+1(415)5552671',
    '++14155552671',
    '+',
    '',
    ' +14155552671',
    '+14155552671 ',
    '+1415555267a',
    '+１４１５５５５２６７１', // full-width digits
    '+14155552671\n',
  ]) {
    t.notOk(isE164(bad), JSON.stringify(bad))
  }
})

t.test('isIsoDate', async (t) => {
  for (const ok of ['2024-02-29', '2000-02-29', '2026-01-01', '2025-12-31', '1900-01-01', '0001-01-01', '9999-12-31', '2025-04-30']) {
    t.ok(isIsoDate(ok), ok)
  }
  for (const bad of [
    '2026-02-30',
    '2025-02-29', // not a leap year
    '1900-02-29', // century, not divisible by 400
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '2024-04-31',
    '2024-1-01',
    '2024-01-1',
    '24-01-01',
    '2024/01/01',
    '2024-01-01T00:00:00Z',
    ' 2024-01-01',
    '2024-01-01 ',
    '0000-01-01',
    '',
    '20240101',
    '+2024-01-01',
    '２０２４-01-01',
  ]) {
    t.notOk(isIsoDate(bad), JSON.stringify(bad))
  }
})

t.test('isWithinDays', async (t) => {
  const now = new Date('2026-05-31T10:00:00.000Z')
  t.ok(isWithinDays('2026-05-31', now, 90), 'today')
  t.ok(isWithinDays('2026-03-02', now, 90), 'exactly 90 days before')
  t.notOk(isWithinDays('2026-03-01', now, 90), '91 days before')
  t.notOk(isWithinDays('2026-06-01', now, 90), 'tomorrow is after now')
  t.notOk(isWithinDays('2026-02-30', now, 90), 'not a real date')
  t.notOk(isWithinDays('not-a-date', now, 90))
  t.notOk(isWithinDays('2026-05-31', new Date(Number.NaN), 90), 'invalid now')
  t.ok(isWithinDays('2026-05-31', now, 0), 'zero days: only today')
  t.notOk(isWithinDays('2026-05-30', now, 0))
  // The UTC date of now counts, not the local one: 23:30 UTC is still 31 May.
  t.ok(isWithinDays('2026-05-31', new Date('2026-05-31T23:30:00.000Z'), 0))
  t.notOk(isWithinDays('2026-06-01', new Date('2026-05-31T23:59:59.999Z'), 0))
  // Across a leap day and a year boundary.
  t.ok(isWithinDays('2023-12-31', new Date('2024-03-30T00:00:00Z'), 90), '2023-12-31 to 2024-03-30 is 90 days')
  t.notOk(isWithinDays('2023-12-30', new Date('2024-03-30T00:00:00Z'), 90))
})

t.test('ageInYears', async (t) => {
  const at = (iso: string): Date => new Date(`${iso}T12:00:00.000Z`)
  t.equal(ageInYears('2000-05-31', at('2026-05-31')), 26, 'birthday today')
  t.equal(ageInYears('2000-06-01', at('2026-05-31')), 25, 'birthday tomorrow')
  t.equal(ageInYears('2000-05-30', at('2026-05-31')), 26)
  t.equal(ageInYears('2008-05-31', at('2026-05-31')), 18)
  t.equal(ageInYears('2008-06-01', at('2026-05-31')), 17)
  t.equal(ageInYears('2004-02-29', at('2025-02-28')), 20, 'leap-day birthday not yet reached on 28 Feb')
  t.equal(ageInYears('2004-02-29', at('2025-03-01')), 21)
  t.equal(ageInYears('2004-02-29', at('2028-02-29')), 24)
  t.equal(ageInYears('2026-05-31', at('2026-05-31')), 0)
  t.equal(ageInYears('2027-01-01', at('2026-05-31')), -1, 'future birth dates are negative')
  t.ok(Number.isNaN(ageInYears('2025-02-29', at('2026-05-31'))), 'invalid date is NaN')
  t.ok(Number.isNaN(ageInYears('2000-01-01', new Date(Number.NaN))))
})

t.test('capabilities', async (t) => {
  t.equal(CAPABILITIES.length, 11 + 31)
  t.equal(new Set(CAPABILITIES).size, CAPABILITIES.length, 'no duplicates')
  const ccys =
    'AED AUD BHD BOB BRL CLP CNY COP DOP EGP EUR GBP HKD IDR INR JPY KRW KWD MXN MYR PEN PHP PYG QAR SAR SGD THB TRY TWD USD VND'.split(' ')
  for (const ccy of ccys) t.ok(isCapability(`${ccy}_FX_PAYOUT`), `${ccy}_FX_PAYOUT`)
  for (const base of [
    'USD_ACH_PAYIN',
    'USD_ACH_PAYOUT',
    'USD_WIRE_PAYIN',
    'USD_WIRE_PAYOUT',
    'USD_BALANCE',
    'USD_YIELD',
    'SWIFT_PAYIN',
    'SWIFT_PAYOUT',
    'STABLECOIN_PAYIN',
    'STABLECOIN_PAYOUT',
    'STABLECOIN_SWAPS',
  ]) {
    t.ok(isCapability(base), base)
  }
  t.notOk(isCapability('CAD_FX_PAYOUT'))
  t.notOk(isCapability('usd_ach_payin'))
  // Usable as a zod enum, with the literal union as its type.
  const schema = z.enum(CAPABILITIES)
  const parsed: Capability = schema.parse('EUR_FX_PAYOUT')
  t.equal(parsed, 'EUR_FX_PAYOUT')
  t.notOk(schema.safeParse('XYZ_FX_PAYOUT').success)
})

t.test('spec enums', async (t) => {
  t.same([...EMPLOYMENT_STATUSES], ['EMPLOYED', 'SELF_EMPLOYED', 'UNEMPLOYED', 'STUDENT', 'RETIRED', 'HOMEMAKER'])
  t.same([...ACCOUNT_PURPOSES], ['PERSONAL_EXPENSES', 'BUSINESS_OPERATIONS', 'INVESTMENT', 'SAVINGS', 'OTHER'])
  t.equal(SOURCES_OF_FUNDS.length, 12)
  t.ok(SOURCES_OF_FUNDS.includes('SOMEONE_ELSES_FUNDS'))
  t.ok(SOURCES_OF_FUNDS.includes('SALE_OF_ASSETS_REAL_ESTATE'))
  t.same([...ASSOCIATED_ROLES], ['CEO', 'CFO', 'COO', 'PRESIDENT', 'GENERAL_COUNSEL', 'MANAGING_MEMBER', 'TREASURER', 'OTHER'])
  t.ok(z.enum(SOURCES_OF_FUNDS).safeParse('GIFTS').success)
  t.notOk(z.enum(EMPLOYMENT_STATUSES).safeParse('employed').success)
})
