// Pure customer rules and views: business tax ids, document references, review
// warnings, requirements, document content checks, lazy session expiry.
import t from 'tap'
import { effectiveSessionStatus } from '../../domain/customer/decideSessions.js'
import { reviewWarnings } from '../../domain/customer/warnings.js'
import { businessRules } from '../../domain/customer/validation/businessRules.js'
import { documentIdsOf, documentRefRules, documentRefs } from '../../domain/customer/validation/documentRefs.js'
import { decodeBase64, matchesContentType } from '../../domain/document/content.js'

const now = new Date('2026-03-01T10:00:00Z')

t.test('business tax id: an EIN for US businesses, normalized; OVERRIDE: kept', async (t) => {
  t.same(businessRules({ taxIdentificationNumber: '123456789' }, 'US', now), { details: [], taxIdentificationNumber: '12-3456789' })
  t.match(businessRules({ taxIdentificationNumber: '12345' }, 'US', now).details, [{ field: 'taxIdentificationNumber' }])
  t.same(businessRules({ taxIdentificationNumber: 'OVERRIDE:x' }, 'US', now).taxIdentificationNumber, 'OVERRIDE:x')
  t.same(businessRules({ taxIdentificationNumber: 'GB123' }, 'GB', now).details, [], 'other countries: stored as given')
  t.match(businessRules({ dateOfIncorporation: '2026-03-02' }, 'US', now).details, [{ field: 'dateOfIncorporation' }])
})

t.test('document references: where each is used, and whether it may be used', async (t) => {
  const data = {
    governmentId: { type: 'PASSPORT' as const, idNumber: 'P', issuingCountry: 'US' as const, frontImage: 'doc_a', backImage: 'doc_b' },
    proofOfAddress: { type: 'UTILITY_BILL' as const, documentDate: '2026-02-01', file: 'doc_c' },
    supportingDocuments: [{ file: 'doc_a', type: 'SELFIE' as const }],
  }
  t.same(
    documentRefs(data).map((r) => r.field),
    ['governmentId.frontImage', 'governmentId.backImage', 'proofOfAddress.file', 'supportingDocuments.0.file'],
  )
  t.same(documentIdsOf(data), ['doc_a', 'doc_b', 'doc_c'])
  const facts = {
    doc_a: { organizationId: 'org_a', customerId: null, contentType: 'application/pdf' },
    doc_b: { organizationId: 'org_b', customerId: null, contentType: 'image/png' },
    doc_c: { organizationId: 'org_a', customerId: 'cus_2', contentType: 'image/png' },
  }
  t.same(
    documentRefRules(documentRefs(data), facts, { organizationId: 'org_a', customerId: 'cus_1' }).map((d) => d.field),
    ['governmentId.backImage', 'proofOfAddress.file'],
  )
  t.same(reviewWarnings(data, facts, now), [
    'supportingDocuments.0: a selfie should be a JPEG or PNG image, not application/pdf',
    'supportingDocuments.0.file: the same document is also used as governmentId.frontImage',
  ])
  t.same(reviewWarnings({ governmentId: { ...data.governmentId, expirationDate: '2026-03-20' } }, {}, now), [
    'governmentId.expirationDate: the document expires within 30 days',
  ])
  t.same(reviewWarnings({ governmentId: { ...data.governmentId, expirationDate: '2026-05-01' } }, {}, now), [])
})

t.test('document content: strict base64, and bytes that match the declared type', async (t) => {
  t.same(decodeBase64(Buffer.from('hello').toString('base64')), Buffer.from('hello'))
  t.equal(decodeBase64('aGVsbG8'), undefined, 'unpadded')
  t.equal(decodeBase64('aGVs bG8='), undefined, 'spaces')
  t.equal(decodeBase64('aGVsbG9='), undefined, 'non-canonical padding bits')
  t.ok(matchesContentType(Buffer.from('%PDF-1.4'), 'application/pdf'))
  t.notOk(matchesContentType(Buffer.from('%PDF'), 'application/pdf'), 'too short')
  t.notOk(matchesContentType(Buffer.from([0xff, 0xd8, 0xff]), 'image/png'))
})

t.test('sessions read as EXPIRED once expiresAt has passed', async (t) => {
  const s = {
    id: 'vsess_1',
    associatedEntityId: null,
    status: 'ACTIVE' as const,
    verificationUrl: 'u',
    email: null,
    expiresAt: '2026-03-01T10:00:00.000Z',
    linkSentAt: null,
    createdAt: 'c',
    updatedAt: 'u',
  }
  t.equal(effectiveSessionStatus(s, new Date('2026-03-01T09:59:59Z')), 'ACTIVE')
  t.equal(effectiveSessionStatus(s, now), 'EXPIRED')
  t.equal(effectiveSessionStatus({ ...s, status: 'SUBMITTED' }, now), 'SUBMITTED', 'only active sessions expire')
})
