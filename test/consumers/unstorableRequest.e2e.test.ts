// Issue 9, defect 1's reproductions through HTTP: a NUL or an unpaired surrogate in a request is
// refused with a 400 in the one error body (by the request boundary, or failing that by the event
// store), nothing is appended, and the consumers stay healthy: the next write is projected at once.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })

const eventCount = async () => (await h.runtime.store.readAll({ maxCount: 10_000 })).length

const cases: [string, { method: 'POST'; url: string; payload: Record<string, unknown> }][] = [
  [
    'a customer whose first name holds NUL',
    { method: 'POST', url: '/v1/customers/individuals', payload: { firstName: 'A\u0000b', lastName: 'L' } },
  ],
  [
    'an endpoint whose description is an unpaired surrogate',
    { method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/hook', description: '\ud800' } },
  ],
  [
    'an endpoint whose metadata key holds NUL',
    { method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/hook', metadata: { 'k\u0000': 'v' } } },
  ],
]

for (const [name, request] of cases) {
  t.test(name, async (t) => {
    const before = await eventCount()
    const res = await h.request(request)
    t.equal(res.statusCode, 400, res.body)
    t.match(res.json(), { error: 'BadRequestError', code: String, message: String, statusCode: 400, requestId: String })
    t.equal(await eventCount(), before, 'nothing appended')

    const health = await h.request({ method: 'GET', url: '/health', apiKey: null })
    t.match(health.json(), {
      status: 'ok',
      consumers: [
        { name: 'projections', status: 'ok' },
        { name: 'webhook_messages', status: 'ok' },
      ],
    })
    const next = await h.request({ method: 'POST', url: '/v1/customers/individuals', payload: { firstName: 'Next', lastName: 'Write' } })
    t.equal(next.statusCode, 201)
    t.equal((await h.request({ method: 'GET', url: `/v1/customers/${next.json().id}` })).statusCode, 200, 'the next write is projected')
  })
}
