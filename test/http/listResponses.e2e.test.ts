// A list item is byte for byte the resource a GET of that item answers: the list routes build
// their items by their own fast paths (timestamps formatted by Postgres, no secrets read), and
// those must not drift from the single-item routes, down to timestamps with sub-millisecond digits.
import t from 'tap'
import { sql } from 'kysely'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)

async function created(url: string, payload: object) {
  const res = await h.request({ method: 'POST', url, payload })
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return res.json() as { id: string }
}

/** The GET bodies of the items, newest first: the list's data, as text. */
async function getBodies(path: string, ids: string[]): Promise<string> {
  const bodies = await Promise.all([...ids].reverse().map(async (id) => (await h.request({ method: 'GET', url: `${path}/${id}` })).body))
  return `[${bodies.join(',')}]`
}

t.test('webhook endpoints: list items equal GET, timestamps cut to milliseconds like a Date', async (t) => {
  const plain = await created('/v1/webhooks/endpoints', { url: 'https://example.com/plain' })
  const full = await created('/v1/webhooks/endpoints', {
    url: 'https://example.com/full',
    description: 'ü "quoted" \\ line',
    filterTypes: ['customer.created'],
    metadata: { nested: { list: [1, 'two', null, true] }, emoji: '😀' },
  })
  // Microseconds that round up and that do not: a Date keeps the milliseconds as they are.
  await sql`UPDATE webhook_endpoints
    SET created_at = '2031-02-03 04:05:06.789999+00', updated_at = '1999-12-31 23:59:59.000500+00' WHERE id = ${full.id}`.execute(
    h.runtime.db,
  )
  const list = await h.request({ method: 'GET', url: '/v1/webhooks/endpoints' })
  t.equal(list.statusCode, 200)
  const data = await getBodies('/v1/webhooks/endpoints', [plain.id, full.id])
  t.equal(list.body, `{"has_more":false,"page_size":50,"url":"/v1/webhooks/endpoints","data":${data},"page_next":null,"page_prev":null}`)
  t.match(list.json().data[0], { id: full.id, createdAt: '2031-02-03T04:05:06.789Z', updatedAt: '1999-12-31T23:59:59.000Z' })
  t.notMatch(list.body, /whsec_/, 'no signing secret in the list')
})

t.test('customers: list items equal GET in both paging modes, whatever the state holds', async (t) => {
  const individual = await created('/v1/customers/individuals', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    countryCode: 'GB',
    metadata: { ref: 'x' },
  })
  const business = await created('/v1/customers/businesses', { businessName: 'Acme Ltd', countryCode: 'DE' })
  // Profiles, associated entities and sessions: the parts of the state a list does not read.
  const saved = await h.request({
    method: 'POST',
    url: `/v1/customers/${individual.id}/verification`,
    payload: { requestedCapabilities: ['USD_ACH_PAYOUT', 'EUR_FX_PAYOUT'], occupation: 'Engineer' },
  })
  t.equal(saved.statusCode, 200, saved.body)
  const savedBusiness = await h.request({
    method: 'POST',
    url: `/v1/customers/${business.id}/business_verification`,
    payload: { requestedCapabilities: ['USD_ACH_PAYOUT'] },
  })
  t.equal(savedBusiness.statusCode, 200, savedBusiness.body)
  const person = await h.request({
    method: 'POST',
    url: `/v1/customers/${business.id}/associated_persons`,
    payload: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
  })
  t.equal(person.statusCode, 201, person.body)
  const session = await h.request({ method: 'POST', url: `/v1/customers/${individual.id}/verification_sessions`, payload: {} })
  t.equal(session.statusCode, 201, session.body)
  const ids = [individual.id, business.id]
  t.match((await h.request({ method: 'GET', url: `/v1/customers/${individual.id}` })).json(), {
    requestedCapabilities: ['USD_ACH_PAYOUT', 'EUR_FX_PAYOUT'],
  })
  const data = await getBodies('/v1/customers', ids)
  const cursorPage = (size: number) =>
    `{"has_more":false,"page_size":${size},"url":"/v1/customers","data":${data},"page_next":null,"page_prev":null}`
  t.equal((await h.request({ method: 'GET', url: '/v1/customers' })).body, cursorPage(50))
  t.equal((await h.request({ method: 'GET', url: '/v1/customers?page_size=10' })).body, cursorPage(10))
  t.equal((await h.request({ method: 'GET', url: '/v1/customers?limit=10' })).body, `{"data":${data},"total":2,"limit":10,"offset":0}`)
})

t.test('customers: a sealed phone, and a row from before the stored resource (0021), list as GET answers them', async (t) => {
  const other = await h.newOrganization('Phones organization')
  const post = async (payload: object) => {
    const res = await h.request({ method: 'POST', url: '/v1/customers/individuals', payload, apiKey: other.apiKey })
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`)
    return (res.json() as { id: string }).id
  }
  const withPhone = await post({ firstName: 'Pam', lastName: 'Phone', email: 'pam@example.com', phone: '+14155550123' })
  const older = await post({ firstName: 'Olga', lastName: 'Older', email: 'olga@example.com', phone: '+14155550124' })
  // As a row projected before migration 0021 holds it: no stored resource (the list makes it from the state).
  await sql`UPDATE customers SET resource = NULL WHERE id = ${older}`.execute(h.runtime.db)
  const get = async (url: string) => (await h.request({ method: 'GET', url, apiKey: other.apiKey })).body
  const data = `[${await get(`/v1/customers/${older}`)},${await get(`/v1/customers/${withPhone}`)}]`
  t.match(data, /\+14155550123.*\+14155550124|\+14155550124.*\+14155550123/, 'both phones shown opened')
  t.equal(await get('/v1/customers?limit=10'), `{"data":${data},"total":2,"limit":10,"offset":0}`)
})
