// Bank details (domain/shared/bank): IBANs and BICs checked with ibantools, ABA routing numbers by
// their 3-7-1 check digit, account numbers by length and alphabet; precise reasons, bounded inputs.
import fc from 'fast-check'
import t, { type Test } from 'tap'
import { z } from 'zod'
import {
  BANK_LIMITS,
  abaRoutingNumberSchema,
  accountNumberSchema,
  bicSchema,
  ibanSchema,
  maskAccountNumber,
  maskIban,
  usAccountNumberSchema,
  validateAbaRoutingNumber,
  validateAccountNumber,
  validateBic,
  validateIban,
  validateUsAccountNumber,
} from '../../domain/shared/bank/index.js'
import type { Checked } from '../../domain/shared/checked.js'
import { DomainError } from '../../domain/errors.js'
import { ERASED } from '../../domain/shared/sensitive/index.js'

const RUNS = { seed: 20261124, numRuns: 300 } as const

/** The refusal's one detail, or a failed assertion when the value was accepted. */
function refusal<T>(t: Test, checked: Checked<T>, code: string): { field: string; message: string } {
  if (checked.ok) {
    t.fail(`expected ${code}, got ${JSON.stringify(checked.value)}`)
    return { field: '', message: '' }
  }
  t.equal(checked.error.kind, 'validation')
  t.equal(checked.error.code, code)
  t.equal(checked.error.details.length, 1, 'one detail')
  const detail = checked.error.details[0]!
  t.notOk('value' in detail, 'bank details are not echoed back')
  return detail
}

const accepted = <T>(checked: Checked<T>): T | undefined => (checked.ok ? checked.value : undefined)

/** ISO 7064 mod 97-10 check digits of a country and BBAN: builds an IBAN whose check digits are right. */
function withCheckDigits(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  const check = 98n - (BigInt(digits) % 97n)
  return `${country}${check.toString().padStart(2, '0')}${bban}`
}

t.test('IBAN: published examples of many countries are accepted and normalized', async (t) => {
  const examples: [string, string, string][] = [
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000', 'DE'],
    ['GB82 WEST 1234 5698 7654 32', 'GB82WEST12345698765432', 'GB'],
    ['FR14 2004 1010 0505 0001 3M02 606', 'FR1420041010050500013M02606', 'FR'],
    ['NL91ABNA0417164300', 'NL91ABNA0417164300', 'NL'],
    ['BE68539007547034', 'BE68539007547034', 'BE'],
    ['CH9300762011623852957', 'CH9300762011623852957', 'CH'],
    ['ES9121000418450200051332', 'ES9121000418450200051332', 'ES'],
    ['IT60X0542811101000000123456', 'IT60X0542811101000000123456', 'IT'],
    ['NO9386011117947', 'NO9386011117947', 'NO'],
    ['MT84MALT011000012345MTLCAST001S', 'MT84MALT011000012345MTLCAST001S', 'MT'],
    ['SA0380000000608010167519', 'SA0380000000608010167519', 'SA'],
    ['BR1800360305000010009795493C1', 'BR1800360305000010009795493C1', 'BR'],
    ['XK051212012345678906', 'XK051212012345678906', 'XK'],
    ['gb82-west-1234-5698-7654-32', 'GB82WEST12345698765432', 'GB'],
    ['  DE89370400440532013000\n', 'DE89370400440532013000', 'DE'],
  ]
  for (const [input, iban, country] of examples) {
    const value = accepted(validateIban(input))
    t.equal(value?.iban, iban, input)
    t.equal(value?.country, country, `${input}: its country`)
    t.equal(value?.bban, iban.slice(4))
  }
  t.equal(accepted(validateIban('DE89370400440532013000'))?.bankIdentifier, '37040044', 'the bank code, where the registry names it')
  t.equal(accepted(validateIban('GB82WEST12345698765432', { expectedCountry: 'GB' }))?.country, 'GB')
})

t.test('IBAN: each refusal says precisely why', async (t) => {
  const cases: [string, RegExp][] = [
    ['DE89370400440532013001', /check digits that do not match/], // one wrong digit
    ['DE89370400440532031000', /check digits that do not match/], // two digits swapped
    ['DE98370400440532013000', /check digits that do not match/], // the check digits swapped
    ['DE8937040044053201300', /has 21 characters, but a DE IBAN has 22/],
    ['DE893704004405320130000', /has 23 characters, but a DE IBAN has 22/],
    ['US64SVBKUS6S3300958879', /starts with US, which is not a country that issues IBANs/],
    ['XX89370400440532013000', /starts with XX, which is not a country that issues IBANs/],
    ['1289370400440532013000', /must start with a two-letter country code/],
    ['DEAB370400440532013000', /two check digits after the country code/],
    [withCheckDigits('GB', '1234WEST9876543210'), /does not follow the GB account number format/],
    ['CH4431999123000889012', /Swiss QR-IBAN/],
    ['', /is required/],
    ['   ', /is required/],
    ['DE89 3704 0044 0532 0130 0\u00a00', /letters A-Z, digits, and spaces/], // a no-break space
    ['DE89\t370400440532013000', /letters A-Z, digits, and spaces/],
    ['DE89 3704 0044 0532 0130 0０', /letters A-Z, digits, and spaces/], // a full-width zero
    ['DЕ89370400440532013000', /letters A-Z, digits, and spaces/], // a Cyrillic Е
    ['DE89370400440532013000ß', /letters A-Z, digits, and spaces/], // 'ß' would upper-case to 'SS'
    ['DE89370400440532013000DE89370400440532013000', /at most 34/],
    ['D'.repeat(10_000), /at most 34 characters/],
  ]
  for (const [input, reason] of cases) {
    const detail = refusal(t, validateIban(input), 'invalid_iban')
    t.match(detail.message, reason, JSON.stringify(input.slice(0, 40)))
    t.equal(detail.field, 'iban')
  }
  // A national check digit (Belgium's mod 97 of the BBAN) caught even when the IBAN's own check digits are right.
  const belgian = withCheckDigits('BE', '539007547035')
  t.match(refusal(t, validateIban(belgian), 'invalid_iban').message, /national check digit/)
  t.match(
    refusal(t, validateIban('DE89370400440532013000', { expectedCountry: 'AT' }), 'invalid_iban').message,
    /is a DE IBAN, but the bank's country is AT/,
  )
  t.equal(refusal(t, validateIban('x', { field: 'body.iban' }), 'invalid_iban').field, 'body.iban', 'the caller names the field')
})

t.test('IBAN: masked on reads', async (t) => {
  t.equal(maskIban('DE89370400440532013000'), 'DE••••••••••••••••3000')
  t.equal(maskIban('NO93 8601 1117 947'), 'NO•••••••••7947')
  t.equal(maskIban(ERASED), ERASED, 'an erased value stays erased')
  t.equal(maskIban('DE89'), '••••')
})

t.test('BIC: 8 or 11 characters, a known country, normalized upper case', async (t) => {
  const examples: [string, string, string][] = [
    ['DEUTDEFF', 'DEUTDEFF', 'DE'],
    ['DEUTDEFF500', 'DEUTDEFF500', 'DE'],
    ['NEDSZAJJXXX', 'NEDSZAJJXXX', 'ZA'],
    ['ABNANL2A', 'ABNANL2A', 'NL'],
    ['CHASUS33', 'CHASUS33', 'US'],
    ['BOFAUS3NXXX', 'BOFAUS3NXXX', 'US'],
    ['  cobadeffxxx ', 'COBADEFFXXX', 'DE'],
  ]
  for (const [input, bic, country] of examples) t.same(accepted(validateBic(input)), { bic, country }, input)
  const cases: [string, RegExp][] = [
    ['DEUTDEF', /must be 8 or 11 characters; got 7/],
    ['DEUTDEFF50', /must be 8 or 11 characters; got 10/],
    ['DEUTDEFF5000', /must be 8 or 11 characters; got 12/],
    ['DEUTXXFF', /has XX as its country/],
    ['1EUTDEFF', /4 letters \(bank\)/],
    ['DEUTDEF_', /letters A-Z and digits, without spaces/],
    ['DEUT DEF', /letters A-Z and digits, without spaces/],
    ['DEUTDEFＦ', /letters A-Z and digits, without spaces/],
    ['', /is required/],
    ['A'.repeat(10_000), /must be 8 or 11 characters; got 64/],
  ]
  for (const [input, reason] of cases) t.match(refusal(t, validateBic(input), 'invalid_bic').message, reason, input.slice(0, 20))
})

t.test('ABA routing numbers: real ones pass, the 3-7-1 check digit catches one wrong digit', async (t) => {
  // JPMorgan Chase NY, the Federal Reserve Bank of Boston, Bank of America NY and CA, Wells Fargo CA, Chase CA, Citibank NY.
  for (const aba of ['021000021', '011000015', '026009593', '121000358', '121042882', '322271627', '021000089']) {
    t.equal(accepted(validateAbaRoutingNumber(aba)), aba, aba)
  }
  t.equal(accepted(validateAbaRoutingNumber(' 021000021 ')), '021000021', 'surrounding whitespace trimmed')
  const cases: [string, RegExp][] = [
    ['021000022', /the 9th would be 1/],
    ['021000012', /check digit that does not match/], // two digits swapped
    ['02100002', /exactly 9 digits; got 8/],
    ['0210000210', /exactly 9 digits; got 10/],
    ['02100002a', /digits 0-9 only/],
    ['021 000 021', /digits 0-9 only/],
    ['٠٢١٠٠٠٠٢١', /digits 0-9 only/], // Arabic-Indic digits
    ['000000000', /all zeros/],
    ['450000006', /45, which is not a Federal Reserve routing symbol/],
    ['', /is required/],
    ['1'.repeat(10_000), /digits 0-9 only/],
  ]
  for (const [input, reason] of cases) {
    t.match(refusal(t, validateAbaRoutingNumber(input), 'invalid_routing_number').message, reason, input.slice(0, 20))
  }
  t.equal(refusal(t, validateAbaRoutingNumber('1'), 'invalid_routing_number').field, 'routingNumber')
})

t.test('account numbers: US 4 to 17 digits; elsewhere 1 to 34 letters and digits; masked on reads', async (t) => {
  t.equal(accepted(validateUsAccountNumber('1234')), '1234')
  t.equal(accepted(validateUsAccountNumber('12345678901234567')), '12345678901234567')
  t.match(refusal(t, validateUsAccountNumber('123'), 'invalid_account_number').message, /4 to 17 digits; got 3/)
  t.match(refusal(t, validateUsAccountNumber('123456789012345678'), 'invalid_account_number').message, /got 18/)
  t.match(refusal(t, validateUsAccountNumber('1234-5678'), 'invalid_account_number').message, /digits 0-9 only/)
  t.match(refusal(t, validateUsAccountNumber('9'.repeat(10_000)), 'invalid_account_number').message, /digits 0-9 only/)
  t.equal(accepted(validateAccountNumber('ab12345')), 'AB12345')
  t.equal(accepted(validateAccountNumber('X')), 'X')
  t.match(refusal(t, validateAccountNumber('A'.repeat(35)), 'invalid_account_number').message, /at most 34 characters; got 35/)
  t.match(refusal(t, validateAccountNumber('12 34'), 'invalid_account_number').message, /without spaces/)
  t.match(refusal(t, validateAccountNumber('１２３'), 'invalid_account_number').message, /letters A-Z and digits only/)
  t.equal(maskAccountNumber('123456789'), '•••••6789')
  t.equal(maskAccountNumber('1234'), '••••')
  t.equal(maskAccountNumber(ERASED), ERASED)
})

t.test('zod schemas: the same precise messages, values stored normalized, OpenAPI-ready', async (t) => {
  t.equal(ibanSchema.parse('gb82 west 1234 5698 7654 32'), 'GB82WEST12345698765432')
  t.equal(bicSchema.parse(' deutdeff '), 'DEUTDEFF')
  t.equal(abaRoutingNumberSchema.parse('021000021 '), '021000021')
  t.equal(usAccountNumberSchema.parse(' 000123456789'), '000123456789')
  t.equal(accountNumberSchema.parse('ab1'), 'AB1')
  const body = z.object({ iban: ibanSchema, bic: bicSchema, routingNumber: abaRoutingNumberSchema })
  const result = body.safeParse({ iban: 'DE89370400440532013001', bic: 'DEUTXXFF', routingNumber: '021000022' })
  t.notOk(result.success)
  t.same(
    result.error?.issues.map((i) => [i.path.join('.'), i.message]),
    [
      ['iban', 'has check digits that do not match: a character is mistyped, missing or swapped'],
      ['bic', 'has XX as its country (characters 5-6), which is not a country code'],
      ['routingNumber', 'has a check digit that does not match: with these first 8 digits the 9th would be 1'],
    ],
  )
  t.notOk(ibanSchema.safeParse('D'.repeat(10_000)).success, 'a long string is refused by its bound')
  for (const schema of [ibanSchema, bicSchema, abaRoutingNumberSchema, usAccountNumberSchema, accountNumberSchema]) {
    const json = z.toJSONSchema(schema, { io: 'input' }) as { type?: string; maxLength?: number }
    t.equal(json.type, 'string')
    t.equal(json.maxLength, BANK_LIMITS.inputMaxLength)
  }
})

t.test('no input makes a bank check throw: any string is accepted or refused with the typed error', async (t) => {
  const checks = [
    (s: string) => validateIban(s),
    (s: string) => validateBic(s),
    (s: string) => validateAbaRoutingNumber(s),
    (s: string) => validateUsAccountNumber(s),
    (s: string) => validateAccountNumber(s),
  ]
  const input = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.stringMatching(/^[A-Z]{2}[0-9]{2}[A-Z0-9 ]{8,30}$/),
    fc.stringMatching(/^[0-9]{7,11}$/),
  )
  t.doesNotThrow(
    () =>
      fc.assert(
        fc.property(input, (s) =>
          checks.every((check) => {
            const checked = check(s)
            return checked.ok || (checked.error instanceof DomainError && checked.error.kind === 'validation')
          }),
        ),
        RUNS,
      ),
    'any string: accepted, or refused with the typed validation error',
  )
  // One digit changed anywhere in the check digits or the BBAN: mod 97 catches every such change.
  t.doesNotThrow(
    () =>
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 21 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
          const iban = 'DE89370400440532013000'
          const digit = (Number(iban[position]) + delta) % 10
          return !validateIban(`${iban.slice(0, position)}${digit}${iban.slice(position + 1)}`).ok
        }),
        RUNS,
      ),
    'one changed digit never passes',
  )
})
