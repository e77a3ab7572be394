// A hot account: 100 holds at once against a balance that covers 60 of them. The account's stream
// decides them in turn, so exactly 60 are held and 40 get a clear 422 insufficient_funds: no 409
// concurrent_modification, no 5xx; and the balance left is exact (nothing more can be held; once
// every hold is released, exactly the whole balance can be held again).
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'

const h = await startTestApp(t)
const customer = await createIndividual(h)

t.test('100 concurrent holds, 60 covered', async (t) => {
  const account = (await h.request({ method: 'POST', url: '/v1/balance-accounts', payload: { customerId: customer.id } })).json()
  await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/fund-in`, payload: { amount: '60.00' } })
  const answers = await Promise.all(
    Array.from({ length: 100 }, () =>
      h.request({ method: 'POST', url: `/v1/accounts/${account.id}/holds`, payload: { currency: 'USD', amount: '100' } }),
    ),
  )
  const byStatus = new Map<number, number>()
  for (const a of answers) byStatus.set(a.statusCode, (byStatus.get(a.statusCode) ?? 0) + 1)
  t.same(Object.fromEntries(byStatus), { 201: 60, 422: 40 }, 'exactly 60 held, 40 refused, nothing else')
  t.ok(
    answers.filter((a) => a.statusCode === 422).every((a) => a.json().code === 'insufficient_funds'),
    'every refusal says insufficient_funds',
  )
  const holdIds = answers.filter((a) => a.statusCode === 201).map((a) => a.json().id as string)
  t.equal(new Set(holdIds).size, 60)
  const one = await h.request({ method: 'POST', url: `/v1/accounts/${account.id}/holds`, payload: { currency: 'USD', amount: '1' } })
  t.equal(one.statusCode, 422, 'nothing is left available')
  const released = await Promise.all(
    holdIds.map((id) => h.request({ method: 'POST', url: `/v1/accounts/${account.id}/holds/${id}/release` })),
  )
  t.ok(released.every((r) => r.statusCode === 200))
  const whole = await h.request({ method: 'POST', url: `/v1/accounts/${account.id}/holds`, payload: { currency: 'USD', amount: '6000' } })
  t.equal(whole.statusCode, 201, 'the whole balance is available again')
  const more = await h.request({ method: 'POST', url: `/v1/accounts/${account.id}/holds`, payload: { currency: 'USD', amount: '1' } })
  t.equal(more.statusCode, 422, 'and not a minor unit more')
})
