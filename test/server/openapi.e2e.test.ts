// The OpenAPI document is valid OpenAPI 3.0, documents every route's request, responses and
// errors, and the viewer is served.
import t from 'tap'
import SwaggerParser from '@apidevtools/swagger-parser'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)

type Operation = {
  responses: Record<string, unknown>
  requestBody?: unknown
  parameters?: { name: string; in: string }[]
  summary?: string
}

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

t.test('GET /api serves the interactive viewer', async (t) => {
  const res = await h.request({ method: 'GET', url: '/api/', apiKey: null })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /text\/html/)
  t.match(res.body, /swagger/i)
})
