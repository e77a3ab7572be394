// Saving individual verification through HTTP: every field of the spec, each rule with a valid and a
// refused case (400 for formats, 422 for rules across fields), details naming the field.
import t, { type Test } from 'tap'
import { CAPABILITIES } from '../../domain/customer/rules/capabilities.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual, daysAgo, fieldsOf, PDF, saveVerification, upload } from './fixtures.js'

const h = await startTestApp(t)
const c = await createIndividual(h)
let current = c.id
const save = (body: unknown) => saveVerification(h, current, body)

async function accepted(t: Test, body: unknown, label: string) {
  const res = await save(body)
  t.equal(res.statusCode, 200, `${label}: accepted (${res.statusCode === 200 ? '' : res.body})`)
  return res.json()
}
async function refused(t: Test, body: unknown, status: 400 | 422, field: string, label: string) {
  const res = await save(body)
  t.equal(res.statusCode, status, `${label}: ${status}`)
  t.ok(fieldsOf(res.json()).includes(field), `${label}: details name ${field} (${JSON.stringify(fieldsOf(res.json()))})`)
  return res.json()
}

t.test("every field of the spec is accepted, all optional; the response has exactly the spec's fields", async (t) => {
  const empty = await accepted(t, {}, 'empty body')
  t.same(Object.keys(empty).sort(), ['customerId', 'documentIds', 'missingRequirements', 'reviewWarnings', 'status'])
  t.equal(empty.status, 'DRAFT')
  const front = await upload(h, c.id)
  const proof = await upload(h, c.id, PDF, 'application/pdf')
  const sof = await upload(h, c.id, PDF, 'application/pdf')
  const body = {
    metadata: { crm: 'x1' },
    hasAgreedToTos: true,
    firstName: 'Ada',
    middleName: 'Augusta',
    nickname: 'Ada',
    lastName: 'King',
    email: 'ada.king@example.com',
    phone: '+447700900123',
    dateOfBirth: '1990-12-10',
    address: {
      addressLine1: '10 Downing St',
      addressLine2: 'Flat 1',
      city: 'London',
      state: 'London',
      postalCode: 'SW1A 2AA',
      country: 'GB',
    },
    nationality: 'GB',
    taxResidenceCountry: 'FR',
    taxIdentificationNumber: 'AB123456C',
    occupation: '15-1252',
    employmentStatus: 'EMPLOYED',
    accountPurpose: 'OTHER',
    accountPurposeExplanation: 'Paying suppliers abroad',
    sourceOfFunds: 'SALARY',
    sourceOfFundsDescription: 'Monthly salary',
    expectedMonthlyPaymentsUsd: 2500.5,
    actingAsIntermediary: false,
    governmentId: { type: 'PASSPORT', idNumber: '123456789', issuingCountry: 'GB', expirationDate: '2030-01-01', frontImage: front },
    proofOfAddress: { type: 'UTILITY_BILL', documentDate: daysAgo(10), file: proof },
    supportingDocuments: [{ file: front, type: 'OTHER', subtype: 'PHOTO', description: 'd', remarks: 'r', requirementId: 'req-1' }],
    proofOfSourceOfFunds: [{ file: sof, type: 'PROOF_OF_SOURCE_OF_FUNDS', subtype: 'PAYSLIP' }],
    ipAddress: '203.0.113.7',
    requestedCapabilities: [...CAPABILITIES],
  }
  const res = await accepted(t, body, 'full body')
  t.same(res.documentIds.sort(), [front, proof, sof].sort())
  t.equal(res.status, 'DRAFT')
  t.notOk('submittedAt' in res, 'submittedAt only once submitted')
  t.same(res.missingRequirements, ['selfie'], 'only the selfie is missing')
  t.ok(
    res.reviewWarnings.some((w: string) => w.includes('also used as')),
    'a document used twice is a warning',
  )
  const customer = (await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })).json()
  t.match(customer, {
    customerName: 'Ada King',
    email: 'ada.king@example.com',
    phone: '+447700900123',
    countryCode: 'GB',
    metadata: { crm: 'x1' },
  })
  t.equal(customer.requestedCapabilities.length, CAPABILITIES.length, 'every capability, including every <CCY>_FX_PAYOUT')
  t.notMatch(JSON.stringify(customer), /AB123456C/, 'the tax id is never returned')
})

t.test('E.164 phone', async (t) => {
  await accepted(t, { phone: '+14155550123' }, 'E.164')
  await refused(t, { phone: '4155550123' }, 400, 'body.phone', 'no +')
  await refused(t, { phone: '+1 415 555 0123' }, 400, 'body.phone', 'spaces')
})

t.test('YYYY-MM-DD dates, real calendar dates, not in the future', async (t) => {
  await accepted(t, { dateOfBirth: '2000-02-29' }, 'leap day')
  await refused(t, { dateOfBirth: '10/12/1990' }, 400, 'body.dateOfBirth', 'US format')
  await refused(t, { dateOfBirth: '2001-02-29' }, 400, 'body.dateOfBirth', 'no such day')
  await refused(t, { dateOfBirth: '2999-01-01' }, 422, 'dateOfBirth', 'future birth date')
})

t.test('transliterated names when a name has characters outside Latin-1', async (t) => {
  await accepted(t, { firstName: 'José', lastName: 'Müller' }, 'Latin-1 accents need nothing')
  await accepted(t, { firstName: 'Дмитрий', transliteratedFirstName: 'Dmitrii' }, 'Cyrillic with transliteration')
  await refused(t, { lastName: '王', firstName: 'Ada' }, 422, 'transliteratedLastName', 'CJK without transliteration')
  await refused(t, { middleName: 'Σοφία' }, 422, 'transliteratedMiddleName', 'Greek without transliteration')
  await refused(
    t,
    { transliteratedMiddleName: 'Σοφία', middleName: 'Σοφία' },
    422,
    'transliteratedMiddleName',
    'transliteration must be Latin-1',
  )
  await accepted(t, { firstName: 'Ada', lastName: 'Lovelace' }, 'back to Latin names')
})

t.test('accountPurposeExplanation required when accountPurpose is OTHER', async (t) => {
  current = (await createIndividual(h)).id
  t.teardown(() => {
    current = c.id
  })
  await refused(t, { accountPurpose: 'OTHER' }, 422, 'accountPurposeExplanation', 'OTHER without explanation')
  await accepted(t, { accountPurpose: 'OTHER', accountPurposeExplanation: 'Family remittances' }, 'OTHER with explanation')
  await accepted(t, { accountPurpose: 'SAVINGS' }, 'other purposes need none')
  await refused(t, { accountPurpose: 'LEISURE' }, 400, 'body.accountPurpose', 'unknown purpose')
})

t.test('taxResidenceCountry only when it differs from nationality', async (t) => {
  await refused(
    t,
    { nationality: 'DE', taxResidenceCountry: 'DE', taxIdentificationNumber: '65929970489' },
    422,
    'taxResidenceCountry',
    'same as nationality',
  )
  await accepted(t, { nationality: 'DE', taxResidenceCountry: 'AT', taxIdentificationNumber: '65929970489' }, 'different')
})

t.test("tax id against the nationality's format; NOT_APPLICABLE; OVERRIDE:", async (t) => {
  const valid: [string, string][] = [
    ['US', '123-45-6789'],
    ['US', '912-70-1234'],
    ['GB', 'AB123456C'],
    ['DE', '65929970489'],
    ['FR', '1234567890123'],
    ['MX', 'GODE561231GR8'],
    ['BR', '529.982.247-25'],
    ['IN', 'ABCPE1234F'],
  ]
  for (const [nationality, tin] of valid)
    await accepted(
      t,
      { nationality, taxIdentificationNumber: tin, taxResidenceCountry: nationality === 'US' ? 'CA' : 'US' },
      `${nationality} ${tin}`,
    )
  const invalid: [string, string][] = [
    ['US', '12345'],
    ['GB', '123'],
    ['DE', '12345678901'],
    ['FR', 'ABC'],
    ['MX', 'NOPE'],
    ['BR', '111.111.111-12'],
    ['IN', '1234567890'],
  ]
  for (const [nationality, tin] of invalid)
    await refused(t, { nationality, taxIdentificationNumber: tin }, 422, 'taxIdentificationNumber', `${nationality} ${tin}`)
  await refused(
    t,
    { nationality: 'US', taxIdentificationNumber: 'NOT_APPLICABLE' },
    422,
    'taxIdentificationNumber',
    'NOT_APPLICABLE for a US national',
  )
  await accepted(t, { nationality: 'AE', taxIdentificationNumber: 'NOT_APPLICABLE', taxResidenceCountry: 'US' }, 'NOT_APPLICABLE elsewhere')
  await accepted(t, { nationality: 'US', taxIdentificationNumber: 'OVERRIDE:0001', taxResidenceCountry: 'CA' }, 'OVERRIDE: stored as is')
  const stored = (await h.runtime.store.readStream(`customer-${c.id}`))
    .map((e) => e.data)
    .reverse()
    .find((d) => (d.changes as Record<string, unknown> | undefined)?.taxIdentificationNumber !== undefined) as {
    changes: { taxIdentificationNumber: string }
  }
  t.equal(stored.changes.taxIdentificationNumber, 'OVERRIDE:0001', 'stored exactly as given')
})

t.test('proof of address dated within 90 days', async (t) => {
  const file = await upload(h, c.id, PDF, 'application/pdf')
  await accepted(t, { proofOfAddress: { type: 'BANK_STATEMENT', documentDate: daysAgo(90), file } }, '90 days old')
  await refused(
    t,
    { proofOfAddress: { type: 'BANK_STATEMENT', documentDate: daysAgo(91), file } },
    422,
    'proofOfAddress.documentDate',
    '91 days old',
  )
  await refused(
    t,
    { proofOfAddress: { type: 'BANK_STATEMENT', documentDate: daysAgo(-2), file } },
    422,
    'proofOfAddress.documentDate',
    'future',
  )
  await refused(t, { proofOfAddress: { type: 'PAYSLIP', documentDate: daysAgo(1), file } }, 400, 'body.proofOfAddress.type', 'unknown type')
})

t.test('government id: known type, back image for two-sided ids, not expired', async (t) => {
  const front = await upload(h, c.id)
  await refused(
    t,
    { governmentId: { type: 'DRIVERS_LICENSE', idNumber: 'D1', issuingCountry: 'US', frontImage: front } },
    422,
    'governmentId.backImage',
    'license without back',
  )
  await refused(
    t,
    { governmentId: { type: 'PASSPORT', idNumber: 'P1', issuingCountry: 'US', frontImage: front, expirationDate: daysAgo(1) } },
    422,
    'governmentId.expirationDate',
    'expired',
  )
  const soon = await accepted(
    t,
    { governmentId: { type: 'PASSPORT', idNumber: 'P1', issuingCountry: 'US', frontImage: front, expirationDate: daysAgo(-10) } },
    'expiring soon',
  )
  t.ok(
    soon.reviewWarnings.some((w: string) => w.startsWith('governmentId.expirationDate')),
    'expiring soon is a review warning',
  )
  await refused(
    t,
    { governmentId: { type: 'LIBRARY_CARD', idNumber: 'X', issuingCountry: 'US', frontImage: front } },
    400,
    'body.governmentId.type',
    'unknown id type',
  )
})

t.test('documents must exist, belong to the organization and to this customer', async (t) => {
  const other = await createIndividual(h)
  const theirs = await upload(h, other.id)
  const unbound = await upload(h)
  await accepted(t, { supportingDocuments: [{ file: unbound, type: 'OTHER' }] }, 'a document uploaded for no customer')
  await refused(
    t,
    { supportingDocuments: [{ file: theirs, type: 'OTHER' }] },
    422,
    'supportingDocuments.0.file',
    "another customer's document",
  )
  await refused(
    t,
    { supportingDocuments: [{ file: 'doc_0000000000000000000000000z', type: 'OTHER' }] },
    422,
    'supportingDocuments.0.file',
    'unknown document',
  )
  await refused(t, { supportingDocuments: [{ file: 'not-a-doc', type: 'OTHER' }] }, 400, 'body.supportingDocuments.0.file', 'not a doc_ id')
  const foreignOrg = await h.newOrganization('Foreign')
  const foreign = await upload(h, undefined, undefined, undefined, { apiKey: foreignOrg.apiKey })
  await refused(
    t,
    { governmentId: { type: 'PASSPORT', idNumber: 'P', issuingCountry: 'US', frontImage: foreign } },
    422,
    'governmentId.frontImage',
    "another organization's document",
  )
})

t.test('enums exactly as the spec lists them', async (t) => {
  await accepted(
    t,
    { employmentStatus: 'HOMEMAKER', sourceOfFunds: 'SOMEONE_ELSES_FUNDS', requestedCapabilities: ['VND_FX_PAYOUT', 'USD_YIELD'] },
    'spec values',
  )
  await refused(t, { employmentStatus: 'employed' }, 400, 'body.employmentStatus', 'lowercase')
  await refused(t, { sourceOfFunds: 'LOTTERY' }, 400, 'body.sourceOfFunds', 'unknown source')
  await refused(t, { requestedCapabilities: ['XYZ_FX_PAYOUT'] }, 400, 'body.requestedCapabilities.0', 'unknown currency')
  await refused(t, { requestedCapabilities: ['USD_YIELD', 'USD_YIELD'] }, 400, 'body.requestedCapabilities', 'repeated')
})

t.test('expectedMonthlyPaymentsUsd: a bounded non-negative amount with cents at most', async (t) => {
  await accepted(t, { expectedMonthlyPaymentsUsd: 0 }, 'zero')
  await accepted(t, { expectedMonthlyPaymentsUsd: 1234.56 }, 'cents')
  await refused(t, { expectedMonthlyPaymentsUsd: -1 }, 400, 'body.expectedMonthlyPaymentsUsd', 'negative')
  await refused(t, { expectedMonthlyPaymentsUsd: 1.234 }, 400, 'body.expectedMonthlyPaymentsUsd', 'fractions of a cent')
  await refused(t, { expectedMonthlyPaymentsUsd: '100' }, 400, 'body.expectedMonthlyPaymentsUsd', 'a string')
})

t.test('limits on strings and arrays', async (t) => {
  await refused(t, { firstName: 'x'.repeat(101) }, 400, 'body.firstName', 'long name')
  const file = await upload(h, c.id)
  await refused(
    t,
    { supportingDocuments: Array.from({ length: 21 }, () => ({ file, type: 'OTHER' })) },
    400,
    'body.supportingDocuments',
    'too many documents',
  )
  await refused(t, { ipAddress: '999.1.1.1' }, 400, 'body.ipAddress', 'bad IP')
})

t.test('a business customer cannot use the individual operation', async (t) => {
  const biz = (
    await h.request({ method: 'POST', url: '/v1/customers/businesses', payload: { businessName: 'B', countryCode: 'US' } })
  ).json()
  const res = await saveVerification(h, biz.id, { phone: '+14155550123' })
  t.equal(res.statusCode, 409)
  t.equal(res.json().code, 'customer_type_mismatch')
})
