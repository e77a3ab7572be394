// The OpenAPI document describes every customer, document, terms and sandbox operation with its
// request fields and error responses.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { dereferenced } from '../proofs/fixtures/dereference.js'

const h = await startTestApp(t)
type Schema = { properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; enum?: string[] }
type Operation = {
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, unknown>
  parameters?: { name: string; in: string }[]
}

t.test('customer operations, fields and errors are documented', async (t) => {
  const doc = dereferenced((await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json())
  const paths = doc.paths as Record<string, Record<string, Operation>>
  const ops: [string, string, string[]][] = [
    ['post', '/v1/customers/individuals', ['201', '400', '401', '403', '409']],
    ['post', '/v1/customers/businesses', ['201', '400', '401', '409']],
    ['get', '/v1/customers', ['200', '400', '401']],
    ['get', '/v1/customers/{id}', ['200', '404']],
    ['delete', '/v1/customers/{id}', ['200', '404', '409']],
    ['post', '/v1/customers/{id}/archive', ['200', '404', '409']],
    ['post', '/v1/customers/{id}/submit', ['200', '404', '409']],
    ['post', '/v1/customers/{id}/verification', ['200', '400', '404', '409', '422']],
    ['post', '/v1/customers/{id}/business_verification', ['200', '400', '404', '409', '422']],
    ['get', '/v1/customers/{id}/compliance', ['200', '404']],
    ['post', '/v1/customers/{customerId}/associated_businesses', ['201', '400', '404', '409', '422']],
    ['get', '/v1/customers/{customerId}/associated_businesses', ['200', '404']],
    ['patch', '/v1/customers/{customerId}/associated_businesses/{entityId}', ['200', '404', '422']],
    ['post', '/v1/customers/{customerId}/associated_persons', ['201', '422']],
    ['post', '/v1/customers/{id}/verification_sessions', ['201', '404', '409', '422']],
    ['get', '/v1/customers/{id}/verification_sessions/{sessionId}', ['200', '404']],
    ['post', '/v1/documents', ['201', '400', '404', '413', '422']],
    ['get', '/v1/documents/{id}', ['200', '404']],
    ['post', '/v1/tos/generate', ['201', '404']],
    ['post', '/v1/sandbox/customers/{id}/simulate-review', ['202', '403', '404', '409']],
  ]
  for (const [method, path, statuses] of ops) {
    const op = paths[path]?.[method]
    if (!op) {
      t.fail(`${method.toUpperCase()} ${path} documented`)
      continue
    }
    for (const s of statuses) t.ok(op.responses[s], `${method.toUpperCase()} ${path} documents ${s}`)
  }
  const verification = paths['/v1/customers/{id}/verification']!.post!
  t.ok(
    verification.parameters?.some((p) => p.in === 'query' && p.name === 'submit'),
    'submit query documented',
  )
  t.ok(
    verification.parameters?.some((p) => p.in === 'header' && p.name === 'x-on-behalf-of'),
    'X-On-Behalf-Of documented',
  )
  const body = verification.requestBody!.content['application/json']!.schema
  const specFields = [
    'metadata',
    'hasAgreedToTos',
    'firstName',
    'middleName',
    'nickname',
    'lastName',
    'transliteratedFirstName',
    'transliteratedMiddleName',
    'transliteratedLastName',
    'email',
    'phone',
    'dateOfBirth',
    'address',
    'nationality',
    'taxResidenceCountry',
    'taxIdentificationNumber',
    'occupation',
    'employmentStatus',
    'accountPurpose',
    'accountPurposeExplanation',
    'sourceOfFunds',
    'sourceOfFundsDescription',
    'expectedMonthlyPaymentsUsd',
    'actingAsIntermediary',
    'governmentId',
    'proofOfAddress',
    'supportingDocuments',
    'proofOfSourceOfFunds',
    'signedAgreementId',
    'ipAddress',
    'requestedCapabilities',
  ]
  for (const f of specFields) t.ok(body.properties?.[f], `verification body documents ${f}`)
  t.equal(body.properties!.requestedCapabilities!.items!.enum!.filter((c) => c.endsWith('_FX_PAYOUT')).length, 31, 'every <CCY>_FX_PAYOUT')
  const asb = paths['/v1/customers/{customerId}/associated_businesses']!.post!.requestBody!.content['application/json']!.schema
  for (const f of [
    'countryCode',
    'hasOwnership',
    'hasControl',
    'businessName',
    'parentEntityId',
    'email',
    'phone',
    'address',
    'ownershipPercentage',
    'isSigner',
    'isDirector',
    'role',
    'attestedOwnershipStructureAt',
    'relationshipDate',
    'generateVerificationLink',
    'sendInvite',
    'registrationNumber',
    'dateOfIncorporation',
    'supportingDocuments',
  ]) {
    t.ok(asb.properties?.[f], `associated business body documents ${f}`)
  }
})
