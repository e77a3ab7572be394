// A hot stream through HTTP: 200 concurrent updates to one webhook endpoint all succeed, with no
// 409 concurrent_modification, decided in turn: the stream holds every one of them.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
const UPDATES = 200

t.test(`${UPDATES} concurrent updates to one endpoint: all land, none conflicts`, async (t) => {
  const created = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'http://127.0.0.1:9/hook' } })
  t.equal(created.statusCode, 201)
  const id = created.json().id as string
  const replies = await Promise.all(
    Array.from({ length: UPDATES }, (_, i) =>
      h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${id}`, payload: { description: `update ${i}` } }),
    ),
  )
  const statuses = replies.map((r) => r.statusCode)
  t.equal(statuses.filter((s) => s === 200).length, UPDATES, 'every update answered 200')
  t.equal(replies.filter((r) => r.statusCode === 409).length, 0, 'no concurrent_modification')
  const events = await h.runtime.store.readStream(`webhook_endpoint-${id}`)
  t.equal(events.length, UPDATES + 1, 'created + every update in the stream')
  t.same(
    events.map((e) => Number(e.revision)),
    events.map((_, i) => i),
    'one revision after another',
  )
  const descriptions = new Set(events.slice(1).map((e) => (e.data as { description?: string }).description))
  t.equal(descriptions.size, UPDATES, 'each update is its own event')
  const last = (events.at(-1)!.data as { description: string }).description
  t.equal(
    (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}` })).json().description,
    last,
    'the read model holds the last one decided',
  )
})
