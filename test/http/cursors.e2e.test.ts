// Every cursor list answers a cursor that names none of its items (made up, or another
// organization's) with 422 invalid_cursor naming the parameter; never an empty 200 that reads like
// the end of the list.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'

// The subscriber stores messages; no dispatcher, so nothing is sent anywhere.
const h = await startTestApp(t, {}, { webhooks: { subscriber: true, dispatcher: false } })
const other = await h.newOrganization('Other organization')

async function created(url: string, payload: object, apiKey?: string) {
  const res = await h.request({ method: 'POST', url, payload, ...(apiKey ? { apiKey } : {}) })
  if (res.statusCode !== 201 && res.statusCode !== 202) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}

// Two items per list in the first organization, one in the other.
const endpoints = [
  await created('/v1/webhooks/endpoints', { url: 'https://example.com/a' }),
  await created('/v1/webhooks/endpoints', { url: 'https://example.com/b' }),
]
const customers = [
  await created('/v1/customers/individuals', { firstName: 'Ada', lastName: 'A' }),
  await created('/v1/customers/individuals', { firstName: 'Bob', lastName: 'B' }),
]
for (const endpoint of endpoints) await created(`/v1/webhooks/endpoints/${endpoint.id}/test`, {})
const otherEndpoint = await created('/v1/webhooks/endpoints', { url: 'https://example.com/o' }, other.apiKey)
const otherCustomer = await created('/v1/customers/individuals', { firstName: 'Oz', lastName: 'O' }, other.apiKey)
await created(`/v1/webhooks/endpoints/${otherEndpoint.id}/test`, {}, other.apiKey)

const messagesOf = async (apiKey: string) =>
  (await h.request({ method: 'GET', url: '/v1/webhooks/messages', apiKey })).json().data as { id: string }[]
const messages = await messagesOf(h.org.apiKey)
const otherMessages = await messagesOf(other.apiKey)

const lists = [
  {
    path: '/v1/customers',
    own: customers.map((c) => c.id as string),
    foreign: otherCustomer.id as string,
    made: 'cus_00000000000000000000000000',
  },
  {
    path: '/v1/webhooks/endpoints',
    own: endpoints.map((e) => e.id as string),
    foreign: otherEndpoint.id as string,
    made: 'ep_00000000000000000000000000',
  },
  { path: '/v1/webhooks/messages', own: messages.map((m) => m.id), foreign: otherMessages[0]?.id ?? 'evt_none', made: 'evt_unknown' },
]

t.test('a cursor that names no item of this organization: 422 invalid_cursor on every list', async (t) => {
  for (const list of lists) {
    t.ok(list.own.length >= 2, `${list.path} has items to page through`)
    for (const param of ['starting_after', 'ending_before']) {
      for (const cursor of [list.made, list.foreign, 'x']) {
        const res = await h.request({ method: 'GET', url: `${list.path}?${param}=${encodeURIComponent(cursor)}` })
        t.equal(res.statusCode, 422, `${list.path} ${param}=${cursor}`)
        t.match(res.json(), { error: 'ValidationError', code: 'invalid_cursor', statusCode: 422, details: [{ field: `query.${param}` }] })
        t.equal(res.json().requestId, res.headers['x-request-id'])
      }
    }
  }
})

t.test('a cursor naming an item of the list pages as before', async (t) => {
  for (const list of lists) {
    const first = await h.request({ method: 'GET', url: `${list.path}?page_size=1` })
    t.equal(first.statusCode, 200, list.path)
    const next = first.json().page_next as string
    t.ok(next, `${list.path} has a next page`)
    const second = await h.request({ method: 'GET', url: next })
    t.equal(second.statusCode, 200, next)
    t.equal(second.json().data.length, 1)
    t.not(second.json().data[0].id, first.json().data[0].id)
    const back = await h.request({ method: 'GET', url: second.json().page_prev })
    t.equal(back.statusCode, 200)
    t.equal(back.json().data[0].id, first.json().data[0].id)
  }
})
