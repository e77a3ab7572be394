// Resource ids: prefix, time-ordered, random tail; and the per-prefix types keep prefixes apart.
import t from 'tap'
import { type CustomerId, ID_PREFIXES, type WebhookEndpointId, newId } from '../../../domain/shared/ids.js'

t.test('an id is its prefix, 10 time characters and 16 random ones, in Crockford base32', async (t) => {
  for (const prefix of Object.values(ID_PREFIXES)) t.match(newId(prefix), new RegExp(`^${prefix}_[0-9abcdefghjkmnpqrstvwxyz]{26}$`), prefix)
  t.not(newId('cus', 0), newId('cus', 0), 'the random tail differs at the same millisecond')
})

t.test('ids sort by creation time', async (t) => {
  const times = [0, 1, 31, 32, 1_000, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, 2 ** 45]
  const ids = times.map((ms) => newId('ep', ms))
  t.same([...ids].sort(), ids)
})

t.test('each prefix has its own id type', async (t) => {
  const customer: CustomerId = newId('cus')
  // @ts-expect-error an endpoint id is not a customer id (tsc checks this line in the typecheck test)
  const wrong: CustomerId = newId('ep')
  const endpoint: WebhookEndpointId = newId('ep')
  t.ok(customer.startsWith('cus_') && endpoint.startsWith('ep_') && wrong.startsWith('ep_'))
})
