// The OpenAPI document describes the counterparty and external wallet operations: every error
// status they answer, and a description on every field of their bodies, responses and queries.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { dereferenced } from '../proofs/fixtures/dereference.js'

const h = await startTestApp(t)
type Schema = { properties?: Record<string, Schema & { description?: string }>; items?: Schema }
type Operation = {
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>
  parameters?: { name: string; in: string; description?: string; schema?: { description?: string } }[]
}

const doc = dereferenced((await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json())
const paths = doc.paths as Record<string, Record<string, Operation>>

const OPERATIONS: [string, string, string[]][] = [
  ['post', '/v1/counterparties', ['201', '400', '401', '404', '409', '422']],
  ['get', '/v1/counterparties', ['200', '400', '401', '422']],
  ['get', '/v1/counterparties/{id}', ['200', '401', '404']],
  ['delete', '/v1/counterparties/{id}', ['200', '401', '404', '409']],
  ['post', '/v1/external-wallets', ['200', '201', '400', '401', '404', '409', '422']],
]

const undescribed = (schema: Schema | undefined): string[] =>
  Object.entries(schema?.properties ?? {})
    .filter(([, property]) => !property.description)
    .map(([name]) => name)

for (const [method, path, statuses] of OPERATIONS) {
  t.test(`${method.toUpperCase()} ${path}`, async (t) => {
    const op = paths[path]?.[method]
    if (!op) return void t.fail('documented')
    for (const s of statuses) t.ok(op.responses[s], `documents ${s}`)
    const body = op.requestBody?.content['application/json']?.schema
    t.same(undescribed(body), [], 'every body field described')
    const ok = op.responses[statuses[0]!]?.content?.['application/json']?.schema
    const item = path === '/v1/counterparties' && method === 'get' ? ok?.properties?.data?.items : ok
    t.ok(Object.keys(item?.properties ?? {}).length > 0, 'the response has fields')
    t.same(undescribed(item), [], 'every response field described')
    const query = (op.parameters ?? []).filter((p) => p.in === 'query' && !(p.description ?? p.schema?.description))
    t.same(
      query.map((p) => p.name),
      [],
      'every query parameter described',
    )
  })
}

t.test('the list items are counterparties', async (t) => {
  const list = paths['/v1/counterparties']?.get?.responses['200']?.content?.['application/json']?.schema
  t.same(Object.keys(list?.properties ?? {}).sort(), ['data', 'limit', 'offset', 'total'])
})
