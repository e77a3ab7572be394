// The read side keeps sensitive fields sealed (issue 11): after personal data, an endpoint, an
// upload and an idempotent POST go in through HTTP, the rows of the read models, the document
// contents and the idempotency records hold none of the plain values, while the API still answers
// them. `data seal-existing` seals rows written in clear before encryption (and a second run seals
// nothing); a projection rebuilds over a customer whose key was shredded.
import t from 'tap'
import { sql } from 'kysely'
import { customersProjector } from '../../projections/customers.js'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import { rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { verifyProjections } from '../../projections/runtime/verifyProjection.js'
import { sealedCustomerState, sealedEndpointSecrets, sealedEndpointSnapshot } from '../../projections/sealedColumns.js'
import { ERASED } from '../../domain/shared/sensitive/index.js'
import { startTestApp } from '../harness/testApp.js'
import { completeIndividualBody, createBusiness, createIndividual, saveVerification, upload } from '../customers/fixtures.js'
import { runCli, stdoutJson } from '../cli/fixtures/runCli.js'

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })

const PHONE = '+14155550199'
const PERSON = { dateOfBirth: '1971-07-21', addressLine1: '77 Sealed Avenue', taxId: '987-65-4321', phone: '+14155550177' }
const DOCUMENT_MARKER = 'sealed-document-marker-4711'
const PDF = Buffer.from(`%PDF-1.7\n% ${DOCUMENT_MARKER}\n`)

/** Every row of the read side's tables that may hold sensitive data, as Postgres prints them. */
async function storedText(): Promise<string> {
  const tables = [
    'customers',
    'verification_sessions',
    'webhook_endpoints',
    'webhook_delivery_endpoints',
    'documents',
    'document_contents',
    'idempotency_keys',
  ]
  const parts: string[] = []
  for (const table of tables) {
    const { rows } = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(table)} t`.execute(h.runtime.db)
    parts.push(...rows.map((r) => r.row))
  }
  return parts.join('\n')
}

/** Plain text and its bytea form (hex, as `t::text` prints a bytea). */
const forms = (value: string) => [value, `\\x${Buffer.from(value).toString('hex')}`]

async function contentBytes(documentId: string): Promise<Buffer> {
  const row = await h.runtime.db.selectFrom('document_contents').select('content').where('document_id', '=', documentId).executeTakeFirst()
  return row?.content ?? Buffer.alloc(0)
}

/** Setup, before any test: a failure throws (a top-level assertion would end the file's root test). */
function expectStatus(reply: { statusCode: number; body: string }, status: number, what: string): void {
  if (reply.statusCode !== status) throw new Error(`${what}: ${reply.statusCode} ${reply.body}`)
}

async function written() {
  const individual = await createIndividual(h, { phone: PHONE })
  const body = await completeIndividualBody(h, individual.id)
  expectStatus(await saveVerification(h, individual.id, { ...body, phone: PHONE }, false), 200, 'save verification')
  const business = await createBusiness(h)
  const person = await h.request({
    method: 'POST',
    url: `/v1/customers/${business.id}/associated_persons`,
    payload: {
      firstName: 'Pat',
      lastName: 'Owner',
      hasControl: true,
      phone: PERSON.phone,
      dateOfBirth: PERSON.dateOfBirth,
      nationality: 'US',
      taxIdentificationNumber: PERSON.taxId,
      address: { addressLine1: PERSON.addressLine1, city: 'Springfield', postalCode: '62701', country: 'US' },
    },
  })
  expectStatus(person, 201, 'associated person')
  const endpoint = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/sealed' } })
  expectStatus(endpoint, 201, 'endpoint')
  const secret = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${endpoint.json().id}/secret` })
  const documentId = await upload(h, individual.id, PDF, 'application/pdf')
  const idempotent = {
    method: 'POST' as const,
    url: '/v1/customers/individuals',
    headers: { 'idempotency-key': `sealed-${Date.now()}` },
    payload: { firstName: 'Idem', lastName: 'Potent', phone: '+14155550155' },
  }
  const first = await h.request(idempotent)
  expectStatus(first, 201, 'idempotent create')
  return {
    individual,
    business,
    person: person.json() as { id: string },
    endpointId: endpoint.json().id as string,
    secret: secret.json().secret as string,
    documentId,
    idempotent,
    first,
  }
}

const w = await written()

t.test('no plain value is stored on the read side; the API returns them all', async (t) => {
  const stored = await storedText()
  const plain = [PHONE, PERSON.phone, PERSON.dateOfBirth, PERSON.addressLine1, PERSON.taxId, '1 Main St', '123-45-6789', w.secret]
  for (const value of [...plain, '+14155550155', '1990-12-10', 'D1234567', DOCUMENT_MARKER]) {
    t.notOk(
      forms(value).some((form) => stored.includes(form)),
      `${value.slice(0, 12)}... is in no row`,
    )
  }
  t.notOk((await contentBytes(w.documentId)).includes(Buffer.from(DOCUMENT_MARKER)), 'the document bytes are sealed')

  const customer = await h.request({ method: 'GET', url: `/v1/customers/${w.individual.id}` })
  t.equal(customer.json().phone, PHONE, 'GET customer: the phone')
  const list = await h.request({ method: 'GET', url: '/v1/customers?page_size=50' })
  t.ok(
    list.json().data.some((c: { id: string; phone: string }) => c.id === w.individual.id && c.phone === PHONE),
    'the list: the phone',
  )
  const listed = await h.request({ method: 'GET', url: '/v1/customers?limit=50&page=1' })
  t.equal(listed.statusCode, 200)
  const person = await h.request({ method: 'GET', url: `/v1/customers/${w.business.id}/associated_persons/${w.person.id}` })
  t.match(person.json(), {
    phone: PERSON.phone,
    details: { dateOfBirth: PERSON.dateOfBirth },
    address: { addressLine1: PERSON.addressLine1 },
  })
  t.notOk(person.body.includes(PERSON.taxId), 'the tax id is never returned')
  t.match(w.secret, /^whsec_/, 'GET secret: the signing secret')
  const content = await h.request({ method: 'GET', url: `/v1/documents/${w.documentId}/content` })
  t.equal(content.statusCode, 200)
  t.equal(content.headers['content-type'], 'application/pdf')
  t.match(content.headers['content-disposition'], /^attachment; filename="file.bin"/)
  t.ok(Buffer.compare(content.rawPayload, PDF) === 0, 'GET content: the bytes as uploaded')
  const replay = await h.request(w.idempotent)
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.equal(replay.statusCode, w.first.statusCode)
  t.equal(replay.body, w.first.body, 'the replay answers the identical body')
})

t.test('GET content: 404 for another organization and unknown ids, with X-On-Behalf-Of of another customer', async (t) => {
  const other = await h.newOrganization('Other')
  const foreign = await h.request({ method: 'GET', url: `/v1/documents/${w.documentId}/content`, apiKey: other.apiKey })
  t.equal(foreign.statusCode, 404)
  t.match(foreign.json(), { error: 'NotFoundError', statusCode: 404, requestId: /\w/ })
  t.equal((await h.request({ method: 'GET', url: '/v1/documents/doc_00000000000000000000000000/content' })).statusCode, 404)
  const acting = await h.request({
    method: 'GET',
    url: `/v1/documents/${w.documentId}/content`,
    headers: { 'x-on-behalf-of': w.business.id },
  })
  t.equal(acting.statusCode, 404)
})

t.test('the dispatcher opens the snapshot secret it signs with', async (t) => {
  const row = await h.runtime.db.selectFrom('webhook_delivery_endpoints').select('state').where('id', '=', w.endpointId).executeTakeFirst()
  t.ok(row, 'the subscriber keeps a snapshot')
  const state = row!.state
  if (state.status === 'none') return t.fail('snapshot without state')
  t.notSame(state.secrets[0]!.secret, w.secret, 'stored sealed')
  const opened = await sealedEndpointSecrets.open(h.runtime.protection, w.endpointId, state.secrets, h.org.organizationId)
  t.equal(opened[0]!.secret, w.secret, 'opens to the secret GET returns')
})

t.test('data seal-existing seals rows written in clear, and a second run changes nothing', async (t) => {
  const env = { DATABASE_URL: h.runtime.databaseUrl }
  // Back to clear, as a database from before issue 11 holds them.
  const customerRow = await h.runtime.db.selectFrom('customers').select('state').where('id', '=', w.individual.id).executeTakeFirstOrThrow()
  const clearState = await sealedCustomerState.open(h.runtime.protection, w.individual.id, customerRow.state)
  await sql`UPDATE customers SET state = ${JSON.stringify(clearState)}::jsonb WHERE id = ${w.individual.id}`.execute(h.runtime.db)
  const endpointRow = await h.runtime.db
    .selectFrom('webhook_endpoints')
    .select('secrets')
    .where('id', '=', w.endpointId)
    .executeTakeFirstOrThrow()
  const clearSecrets = await sealedEndpointSecrets.open(h.runtime.protection, w.endpointId, endpointRow.secrets, h.org.organizationId)
  await sql`UPDATE webhook_endpoints SET secrets = ${JSON.stringify(clearSecrets)}::jsonb WHERE id = ${w.endpointId}`.execute(h.runtime.db)
  const snapshot = await h.runtime.db
    .selectFrom('webhook_delivery_endpoints')
    .select('state')
    .where('id', '=', w.endpointId)
    .executeTakeFirstOrThrow()
  const clearSnapshot = await sealedEndpointSnapshot.open(h.runtime.protection, w.endpointId, snapshot.state, h.org.organizationId)
  await sql`UPDATE webhook_delivery_endpoints SET state = ${JSON.stringify(clearSnapshot)}::jsonb WHERE id = ${w.endpointId}`.execute(
    h.runtime.db,
  )
  await h.runtime.db.updateTable('document_contents').set({ content: PDF }).where('document_id', '=', w.documentId).execute()
  await h.runtime.db
    .updateTable('idempotency_keys')
    .set({ response_body: w.first.body, response_sealed: null })
    .where('key', '=', w.idempotent.headers['idempotency-key'])
    .execute()
  const before = await storedText()
  t.ok(before.includes(PHONE) && before.includes(w.secret), 'in clear before the migration')
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${w.individual.id}` })).json().phone, PHONE, 'clear rows read as they are')
  t.ok(Buffer.compare((await h.request({ method: 'GET', url: `/v1/documents/${w.documentId}/content` })).rawPayload, PDF) === 0)

  const first = await runCli(['data', 'seal-existing'], env)
  t.equal(first.code, 0, first.stderr)
  const counts = stdoutJson<{ tables: Record<string, { sealed: number; scanned: number }> }>(first).tables
  t.match(counts, {
    'customers.state': { sealed: 1 },
    'webhook_endpoints.secrets': { sealed: 1 },
    'webhook_delivery_endpoints.state': { sealed: 1 },
    'document_contents.content': { sealed: 1, erased: 0 },
    'idempotency_keys.response_body': { sealed: 1 },
  })
  const after = await storedText()
  for (const value of [PHONE, w.secret, '1 Main St', '1990-12-10', DOCUMENT_MARKER]) {
    t.notOk(
      forms(value).some((form) => after.includes(form)),
      `${value.slice(0, 12)}... sealed by the migration`,
    )
  }
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${w.individual.id}` })).json().phone, PHONE, 'the API still answers')
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${w.endpointId}/secret` })).json().secret, w.secret)
  t.ok(Buffer.compare((await h.request({ method: 'GET', url: `/v1/documents/${w.documentId}/content` })).rawPayload, PDF) === 0)
  const replay = await h.request(w.idempotent)
  t.equal(replay.body, w.first.body, 'the replay answers the identical body')

  const second = await runCli(['data', 'seal-existing'], env)
  t.equal(second.code, 0, second.stderr)
  const again = stdoutJson<{ tables: Record<string, { sealed: number }> }>(second).tables
  t.same(
    Object.values(again).map((c) => c.sealed),
    Object.values(again).map(() => 0),
    'a second run seals nothing',
  )
  t.equal(await storedText(), after, 'and changes no row')
  const usage = await runCli(['data', 'seal-existing', 'customers'], env)
  t.equal(usage.code, 2, 'arguments are a usage error')
  // The projections still equal a rebuild from the events.
  const verified = await verifyProjections(
    h.runtime.store,
    h.runtime.databaseUrl,
    [customersProjector, webhookEndpointsProjector],
    h.runtime,
  )
  t.same(
    verified.map((v) => v.differences),
    [0, 0],
    'verify finds no difference',
  )
})

t.test('after a shred, rebuilds succeed, sealed leaves read as erased and the content is gone (410)', async (t) => {
  const customer = await createIndividual(h, { phone: '+14155550111' })
  const documentId = await upload(h, customer.id, PDF, 'application/pdf')
  t.ok(await h.runtime.protection.keys.shred(customer.id, 'test'))
  await rebuildProjection(h.runtime.store, h.runtime.db, customersProjector, h.runtime)
  const row = await h.runtime.db.selectFrom('customers').select('state').where('id', '=', customer.id).executeTakeFirstOrThrow()
  t.equal(row.state.phone, ERASED, 'the rebuilt row stores the marker')
  t.equal(row.state.individual.phone, ERASED)
  // A later event still projects: nothing sensitive needs the shredded key.
  const archived = await h.request({ method: 'POST', url: `/v1/customers/${customer.id}/archive` })
  t.equal(archived.statusCode, 200, archived.body)
  const after = await h.runtime.db
    .selectFrom('customers')
    .select(['status', 'state'])
    .where('id', '=', customer.id)
    .executeTakeFirstOrThrow()
  t.equal(after.status, 'ARCHIVED')
  t.equal(after.state.phone, ERASED)
  const content = await h.request({ method: 'GET', url: `/v1/documents/${documentId}/content` })
  t.equal(content.statusCode, 410)
  t.match(content.json(), { error: 'GoneError', code: 'document_erased', statusCode: 410, requestId: /\w/ })
  t.notOk((await storedText()).includes('+14155550111'))
  const refused = await h.request({
    method: 'POST',
    url: '/v1/documents',
    payload: { customerId: customer.id, fileName: 'late.pdf', contentType: 'application/pdf', content: PDF.toString('base64') },
  })
  t.equal(refused.statusCode, 409, 'no new document for an erased customer')
  t.match(refused.json(), { code: 'customer_erased', statusCode: 409 })
})
