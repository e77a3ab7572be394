// The OpenAPI document is valid OpenAPI 3.0, documents every route's request, responses and
// errors, names each operation for SDKs, shows an example of each, shares its shapes as components,
// and the viewer is served.
import t from 'tap'
import SwaggerParser from '@apidevtools/swagger-parser'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)

type Media = { schema?: unknown; example?: unknown }
type Operation = {
  operationId?: string
  tags?: string[]
  responses: Record<string, { content?: Record<string, Media> }>
  requestBody?: { content?: Record<string, Media> }
  parameters?: { name: string; in: string }[]
  summary?: string
}

/** The served document's bound: it was 3.3 MB before its shapes became components (about 0.75 MB after, examples included). */
const MAX_DOCUMENT_BYTES = 1_000_000

t.test('GET /api-json is a valid OpenAPI 3.0 document', async (t) => {
  const res = await h.request({ method: 'GET', url: '/api-json', apiKey: null })
  t.equal(res.statusCode, 200)
  const doc = res.json()
  t.match(doc.openapi, /^3\.0\./)
  const validated = await SwaggerParser.validate(structuredClone(doc))
  t.ok(validated, 'swagger-parser accepts it')

  const paths = doc.paths as Record<string, Record<string, Operation>>
  const expected = [
    ['post', '/v1/webhooks/endpoints'],
    ['get', '/v1/webhooks/endpoints'],
    ['put', '/v1/webhooks/endpoints/{endpointId}'],
    ['delete', '/v1/webhooks/endpoints/{endpointId}'],
    ['get', '/v1/webhooks/endpoints/{endpointId}/secret'],
    ['post', '/v1/webhooks/endpoints/{endpointId}/secret/rotate'],
    ['get', '/health'],
  ] as const
  for (const [method, path] of expected) t.ok(paths[path]?.[method], `${method.toUpperCase()} ${path} documented`)

  for (const [path, operations] of Object.entries(paths)) {
    if (!path.startsWith('/v1/')) continue
    for (const [method, op] of Object.entries(operations)) {
      t.ok(op.summary, `${method} ${path} has a summary`)
      for (const status of ['400', '401', '500']) t.ok(op.responses[status], `${method} ${path} documents ${status}`)
      t.ok(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        `${method} ${path} documents success`,
      )
      if (['post', 'put', 'delete'].includes(method)) {
        t.ok(
          op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
          `${method} ${path} documents Idempotency-Key`,
        )
      }
    }
  }
  const create = paths['/v1/webhooks/endpoints']!.post!
  t.ok(create.requestBody, 'create documents its body')
  t.ok(doc.components.securitySchemes.bearerAuth, 'bearer auth documented')
})

t.test('every operation has an operationId, summary, declared tag, error responses and an example', async (t) => {
  const doc = (await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json()
  const declared = new Map((doc.tags as { name: string; description?: string }[]).map((tag) => [tag.name, tag.description]))
  for (const [name, description] of declared) t.ok(description, `tag ${name} has a description`)
  const ids = new Map<string, string>()
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(operations)) {
      const at = `${method.toUpperCase()} ${path}`
      t.match(op.operationId, /^[a-z][a-zA-Z0-9]+$/, `${at}: camelCase operationId`)
      if (op.operationId) {
        t.notOk(ids.has(op.operationId), `${at}: operationId ${op.operationId} unique (also ${ids.get(op.operationId)})`)
        ids.set(op.operationId, at)
      }
      t.ok(op.summary, `${at}: summary`)
      t.ok(op.tags?.length, `${at}: tagged`)
      for (const tag of op.tags ?? []) t.ok(declared.has(tag), `${at}: tag ${tag} declared at the top level`)
      t.ok(
        Object.keys(op.responses).some((s) => s.startsWith('4')),
        `${at}: documents its error responses`,
      )
      const success = Object.entries(op.responses).filter(([s]) => s.startsWith('2'))
      const examples = success.flatMap(([, r]) => Object.values(r.content ?? {}).filter((m) => m.example !== undefined))
      t.ok(examples.length > 0, `${at}: a success example`)
      if (op.requestBody) t.not(op.requestBody.content?.['application/json']?.example, undefined, `${at}: a request example`)
    }
  }
  t.ok(ids.size >= 100, `${ids.size} operations named`)
})

t.test('shared shapes are components, referenced with $ref, and the document stays small', async (t) => {
  const res = await h.request({ method: 'GET', url: '/api-json', apiKey: null })
  const doc = res.json()
  t.ok(Buffer.byteLength(res.body) < MAX_DOCUMENT_BYTES, `${Buffer.byteLength(res.body)} bytes, under ${MAX_DOCUMENT_BYTES}`)
  const schemas = doc.components.schemas as Record<string, unknown>
  for (const name of [
    'Error',
    'Money',
    'MinorAmount',
    'CountryCode',
    'AccountCurrencyCode',
    'Address',
    'Metadata',
    'CustomerId',
    'TransferId',
    'Customer',
    'Account',
    'Transfer',
    'FxTrade',
    'Agent',
    'WebhookEndpoint',
    'WebhookMessage',
    'DeletedResource',
  ]) {
    t.ok(schemas[name], `components.schemas.${name}`)
  }
  const body = res.body
  t.equal(body.split('"AD","AE","AF"').length - 1, 1, 'the country list appears once')
  const refs = body.match(/"\$ref":"#\/components\/schemas\//g) ?? []
  t.ok(refs.length > 500, `${refs.length} references to components`)
  const error = doc.paths['/v1/transfers'].post.responses['422'].content['application/json'].schema
  t.match(JSON.stringify(error), /#\/components\/schemas\/Error"/, 'error responses refer to the Error component')
  const read = doc.paths['/v1/transfers/{id}'].get.responses['200'].content['application/json'].schema
  t.match(read, { $ref: String }, 'a read answers a component')
})

t.test('servers and licence are set', async (t) => {
  const doc = (await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json()
  t.match(doc.servers[0], { url: 'http://127.0.0.1:3000' }, 'the local sandbox first')
  t.ok(doc.servers.length >= 2, 'and a production deployment')
  t.match(doc.info.license, { name: String, url: /^https:\/\// })
})

t.test('GET /api serves the interactive viewer', async (t) => {
  const res = await h.request({ method: 'GET', url: '/api/', apiKey: null })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /text\/html/)
  t.match(res.body, /swagger/i)
})
