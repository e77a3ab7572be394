// Addresses: the shape, and the rule that lines outside Latin-1 need their transliterated form.
import t from 'tap'
import { ADDRESS_LIMITS, addressRules, addressSchema } from '../../../domain/shared/address.js'
import { isLatin1, needsTransliteration } from '../../../domain/shared/latin1.js'

const us = { addressLine1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' as const }

t.test('Latin-1 names', async (t) => {
  for (const latin of ['José', 'Zoë', 'François', 'Müller', 'Øyvind', 'Ñandú', "O'Brien", 'Anne-Marie', 'ÿ', '', 'Smith Jr.']) {
    t.ok(isLatin1(latin), latin)
    t.notOk(needsTransliteration(latin), latin)
  }
  for (const other of [
    'Łukasz',
    'Dvořák',
    'Ōtani',
    'Иван',
    '李',
    'محمد',
    'Ελένη',
    'Ā',
    'Œuvre',
    'Jos\u0301e' /* combining accent U+0301 */,
    'A😀',
  ]) {
    t.notOk(isLatin1(other), other)
    t.ok(needsTransliteration(other), other)
  }
})

t.test('addresses outside Latin-1 need their transliterated lines, in Latin-1', async (t) => {
  t.same(addressRules(us, 'address'), [])
  t.match(addressRules({ ...us, city: 'Москва', country: 'RU' }, 'address'), [{ field: 'address.transliterated.city' }])
  t.same(addressRules({ ...us, city: 'Москва', transliterated: { city: 'Moskva' } }, 'address'), [])
  t.match(addressRules({ ...us, transliterated: { city: 'Мск' } }, 'registeredAddress'), [
    { field: 'registeredAddress.transliterated.city' },
  ])
})

t.test('the shape: trimmed lines within their limits, a known country', async (t) => {
  t.same(addressSchema.parse({ ...us, city: '  Springfield ' }), us, 'lines are trimmed')
  t.notOk(addressSchema.safeParse({ ...us, country: 'UK' }).success, 'UK is not a country code (GB is)')
  t.notOk(addressSchema.safeParse({ ...us, addressLine1: 'x'.repeat(ADDRESS_LIMITS.lineMaxLength + 1) }).success, 'too long a line')
  t.notOk(addressSchema.safeParse({ ...us, postalCode: '   ' }).success, 'a blank postal code')
})
