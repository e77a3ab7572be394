// Concurrent quotes never take more capacity than a corridor has: the organization's FX stream
// decides every reservation in turn. 20 quotes of $100 at once against $1 500: exactly 15 are
// created and 5 refused with 422 fx_quote_capacity_exhausted, no 409 and no 5xx; the reservations
// on the stream add up to the capacity. Quotes on another corridor are not held back by it.
import t from 'tap'
import { fxSettingsStreamOf } from '../../commands/fx-settings/fxSettingsCommands.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer } from '../transfers/transferWorld.js'

const now = new Date('2026-11-28T12:00:00.000Z')
const h = await startTestApp(t, {}, { clock: () => now })

t.test('20 concurrent quotes against the capacity of 15', async (t) => {
  const customerId = await approvedCustomer(h)
  const set = await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { sandboxProvider: { capacityUsd: '1500' } } })
  t.equal(set.statusCode, 200)
  const body = (destinationCurrency: string, destinationNetwork: string) => ({
    customerId,
    sourceCurrency: 'USDC',
    sourceNetwork: 'SOLANA',
    destinationCurrency,
    destinationNetwork,
    sourceAmount: '100000000',
  })
  const replies = await Promise.all(
    Array.from({ length: 20 }, () => h.request({ method: 'POST', url: '/v1/fx/quotes', payload: body('USDT', 'TRON') })),
  )
  const statuses = replies.map((r) => r.statusCode)
  t.equal(statuses.filter((s) => s === 201).length, 15, 'exactly the capacity was quoted')
  t.equal(statuses.filter((s) => s === 422).length, 5, 'the rest refused')
  t.ok(
    replies.filter((r) => r.statusCode === 422).every((r) => r.json().code === 'fx_quote_capacity_exhausted'),
    'each refusal says fx_quote_capacity_exhausted',
  )
  t.notOk(
    statuses.some((s) => s === 409 || s >= 500),
    'no concurrent_modification, no 5xx',
  )
  t.equal(new Set(replies.filter((r) => r.statusCode === 201).map((r) => r.json().id)).size, 15, 'fifteen distinct quotes')
  const reserved = (await h.runtime.store.readStream(fxSettingsStreamOf(h.org.organizationId))).filter(
    (e) => e.type === 'FxCapacityReserved',
  )
  t.equal(reserved.length, 15, 'one reservation per quote')
  t.equal(
    reserved.reduce((sum, e) => sum + BigInt(String(e.data.amountCents)), 0n),
    150_000n,
    'the reservations add up to the capacity, in cents',
  )
  const other = await Promise.all(
    Array.from({ length: 5 }, () => h.request({ method: 'POST', url: '/v1/fx/quotes', payload: body('USAT', 'ETHEREUM') })),
  )
  t.same(
    other.map((r) => r.statusCode),
    [201, 201, 201, 201, 201],
    'another corridor has capacity of its own',
  )
})
