// Concurrent draws never exceed the credit limit: the facility's one stream decides them in turn.
// 20 draws of 100 000 at once against a limit of 1 500 000: exactly 15 are taken (201) and 5 refused
// with 422 credit_limit_exceeded, no 409 and no 5xx; borrowed ends at the limit exactly and the
// treasury holds exactly what was drawn. Also: the sandbox configuration is 403 in production.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { TERMS, availableOn, configure, readyFacility } from './fixtures.js'

t.test('20 concurrent draws whose sum exceeds the limit', async (t) => {
  const h = await startTestApp(t)
  const treasury = await readyFacility(h, { ...TERMS, creditLimit: '1500000', maximumDrawAmount: '100000' })
  const replies = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '100000', reference: `d${i}` } }),
    ),
  )
  const statuses = replies.map((r) => r.statusCode)
  t.equal(statuses.filter((s) => s === 201).length, 15, 'exactly the limit was drawn')
  t.equal(statuses.filter((s) => s === 422).length, 5, 'the rest refused')
  t.ok(
    replies.filter((r) => r.statusCode === 422).every((r) => r.json().code === 'credit_limit_exceeded'),
    'each refusal says credit_limit_exceeded',
  )
  t.notOk(
    statuses.some((s) => s === 409 || s >= 500),
    'no concurrent_modification, no 5xx',
  )
  const facility = (await h.request({ method: 'GET', url: '/v1/liquidity/facility' })).json()
  t.match(facility.creditLine, { borrowedAmount: '1500000', remainingCredit: '0', transactionsOpen: 15 })
  const ids = new Set(replies.filter((r) => r.statusCode === 201).map((r) => r.json().id as string))
  t.equal(ids.size, 15, 'fifteen distinct draws')
  const listed = (await h.request({ method: 'GET', url: '/v1/liquidity/facility/draws?page_size=100' })).json()
  t.same(new Set(listed.data.map((d: { id: string }) => d.id)), ids, 'the list shows exactly those')
  t.equal(await availableOn(h, treasury), 1_500_000n, 'the treasury got exactly what was drawn')
})

t.test('the sandbox configuration does not exist in production', async (t) => {
  const h = await startTestApp(t, { APP_ENV: 'production' })
  const refused = await configure(h)
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().code, 'sandbox_only')
  const facility = await h.request({ method: 'GET', url: '/v1/liquidity/facility' })
  t.equal(facility.json().creditLine.creditLimit, '0', 'nothing configured')
})
