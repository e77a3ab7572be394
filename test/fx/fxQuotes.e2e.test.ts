// Firm quotes through HTTP: priced with the spread withheld as a fee (a stablecoin pair, a fiat
// source, an amount on the destination side), read back, idempotent, consuming the corridor's
// capacity that recovers within the hour; every error code of quote creation by its own condition,
// the not-executable ones with hint, limits and requested; expiry, read lazily then recorded by the
// scheduler's timer, which sends fx_quote.expired.
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { quoteExpiryTimerId } from '../../commands/fx-quotes/quoteExpiry.js'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { createIndividual } from '../customers/fixtures.js'
import { keyedClient } from '../harness/httpClient.js'
import { approvedCustomer } from '../transfers/transferWorld.js'

const STABLE = { sourceCurrency: 'USDC', sourceNetwork: 'ETHEREUM', destinationCurrency: 'USDT', destinationNetwork: 'TRON' }
const EUR_IN = { sourceCurrency: 'EUR', sourceRail: 'SEPA', destinationCurrency: 'USDC', destinationNetwork: 'SOLANA' }

let now = new Date('2026-11-28T10:00:00.000Z')
const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { clock: () => now, webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())
const customerId = await approvedCustomer(h)
const quote = (payload: object, headers: Record<string, string> = {}, apiKey?: string) =>
  h.request({ method: 'POST', url: '/v1/fx/quotes', payload: { customerId, ...payload }, headers, ...(apiKey ? { apiKey } : {}) })

t.test('a stablecoin quote: both amounts, the spread as a fee, the rates, 60 seconds firm', async (t) => {
  const res = await quote({ ...STABLE, sourceAmount: '100000000' })
  t.equal(res.statusCode, 201, res.body)
  const q = res.json()
  t.match(q, {
    id: /^fxq_/,
    organizationId: h.org.organizationId,
    customerId,
    source: { currency: 'USDC', network: 'ETHEREUM' },
    destination: { currency: 'USDT', network: 'TRON' },
    sourceAmount: { currency: 'USDC', exponent: 6, value: '100000000', displayValue: '100' },
    destinationAmount: { currency: 'USDT', value: '99750000' },
    fee: { currency: 'USDC', value: '250000' },
    spreadBps: 25,
    rate: '0.9975',
    exchangeRate: '0.9975',
    referenceRate: '1',
    referenceProvider: 'SANDBOX_REFERENCE',
    referenceRateAsOf: '2026-11-28T10:00:00.000Z',
    amountSide: 'SOURCE',
    status: 'PENDING',
    expiresAt: '2026-11-28T10:01:00.000Z',
    acceptedAt: null,
    tradeId: null,
  })
  const read = await h.request({ method: 'GET', url: `/v1/fx/quotes/${q.id}` })
  t.same(read.json(), q, 'read back as created')
  const other = await h.newOrganization('Other')
  t.equal((await h.request({ method: 'GET', url: `/v1/fx/quotes/${q.id}`, apiKey: other.apiKey })).statusCode, 404, 'not for others')
})

t.test('a fiat source and an amount on the destination side', async (t) => {
  await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { fiatPairsEnabled: true } })
  const eur = (await quote({ ...EUR_IN, sourceAmount: '10000' })).json()
  t.match(eur, {
    sourceAmount: { currency: 'EUR', exponent: 2, value: '10000' },
    fee: { currency: 'EUR', value: '25' },
    destinationAmount: { currency: 'USDC', value: '108423913' },
    rate: '1.08423913',
    referenceRate: '1.086956521739',
  })
  const exact = (await quote({ ...STABLE, destinationAmount: '99750000' })).json()
  t.match(exact, { amountSide: 'DESTINATION', sourceAmount: { value: '100000000' }, destinationAmount: { value: '99750000' } })
  const odd = (await quote({ ...STABLE, destinationAmount: '5000001' })).json()
  t.ok(BigInt(odd.destinationAmount.value) === 5000001n, 'the destination amount met exactly')
  t.ok(BigInt(odd.sourceAmount.value) - BigInt(odd.fee.value) >= 5000001n, 'by the smallest source that reaches it')
})

t.test('idempotent creation; the capacity quotes use, and its recovery', async (t) => {
  const org = await h.newOrganization('Capacity')
  const k = org.apiKey
  const own = await approvedCustomer(keyedClient(h, k))
  await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { sandboxProvider: { capacityUsd: '250' } }, apiKey: k })
  const body = { ...STABLE, customerId: own, sourceAmount: '100000000' }
  const first = await quote(body, { 'idempotency-key': 'q-1' }, k)
  const replay = await quote(body, { 'idempotency-key': 'q-1' }, k)
  t.equal(first.statusCode, 201)
  t.equal(replay.json().id, first.json().id, 'the same quote again')
  t.equal((await quote(body, {}, k)).statusCode, 201, 'the replay took no capacity: $200 of $250 used')
  const dry = await quote(body, {}, k)
  t.equal(dry.statusCode, 422)
  t.match(dry.json(), {
    code: 'fx_quote_capacity_exhausted',
    hint: /recovers/,
    limits: { sourceCurrency: 'USDC', min: '1000000', max: '10000000000' },
    requested: { currency: 'USDC', amount: '100000000', side: 'SOURCE' },
  })
  t.equal((await quote({ ...body, sourceAmount: '50000000' }, {}, k)).statusCode, 201, 'what is left still quotes')
  const rates = `/v1/fx/rates?${new URLSearchParams(STABLE)}`
  t.equal((await h.request({ method: 'GET', url: rates, apiKey: k })).json().code, 'fx_quote_capacity_exhausted', 'the rates see it too')
  now = new Date(now.getTime() + 30 * 60_000)
  t.equal((await quote(body, {}, k)).statusCode, 201, 'half an hour recovers half the capacity')
  now = new Date(now.getTime() - 30 * 60_000)
})

t.test('every error code of quote creation, each by its own condition', async (t) => {
  const expect = async (payload: object, status: number, code: string, what: string, apiKey?: string) => {
    const res = await quote(payload, {}, apiKey)
    t.equal(res.statusCode, status, `${what}: ${status}`)
    t.equal(res.json().code, code, `${what}: ${code}`)
    return res.json()
  }
  await expect({ ...STABLE }, 400, 'invalid_request', 'no amount')
  await expect({ ...STABLE, sourceAmount: '1000000', destinationAmount: '1000000' }, 400, 'invalid_request', 'two amounts')
  await expect({ ...STABLE, sourceRail: 'SEPA', sourceAmount: '1000000' }, 400, 'fx_pair_shape_invalid', 'a rail for a crypto side')
  await expect({ ...EUR_IN, sourceRail: 'SWIFT', sourceAmount: '1000' }, 400, 'fx_source_rail_not_supported', 'SWIFT in')
  await expect({ ...STABLE, sourceNetwork: 'TRON', sourceAmount: '1000000' }, 404, 'fx_pair_unsupported', 'USDC on Tron')
  await expect({ ...STABLE, customerId: `cus_${'0'.repeat(26)}`, sourceAmount: '1000000' }, 404, 'resource_not_found', 'no such customer')
  const small = await expect({ ...STABLE, sourceAmount: '999999' }, 422, 'fx_quote_amount_too_small', 'below $1')
  t.match(small, { hint: /minimum/, limits: { sourceCurrency: 'USDC', min: '1000000' }, requested: { amount: '999999', side: 'SOURCE' } })
  const large = await expect({ ...STABLE, destinationAmount: '10000000000' }, 422, 'fx_quote_amount_too_large', 'above $10 000')
  t.match(large, { limits: { max: '10000000000' }, requested: { currency: 'USDT', amount: '10000000000', side: 'DESTINATION' } })

  const org = await h.newOrganization('Switches')
  const k = org.apiKey
  const set = (payload: object) => h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload, apiKey: k })
  const mine = await approvedCustomer(keyedClient(h, k))
  const unapproved = (await createIndividual(keyedClient(h, k))).id
  const swapsOnly = await approvedCustomer(keyedClient(h, k), ['STABLECOIN_PAYIN', 'STABLECOIN_PAYOUT'])
  await expect({ ...EUR_IN, customerId: mine, sourceAmount: '1000' }, 403, 'fx_fiat_pairs_not_enabled', 'fiat pairs off', k)
  await expect({ ...STABLE, customerId: unapproved, sourceAmount: '1000000' }, 422, 'customer_not_approved', 'not approved', k)
  await expect({ ...STABLE, customerId: swapsOnly, sourceAmount: '1000000' }, 422, 'customer_capability_missing', 'no STABLECOIN_SWAPS', k)
  await set({ sandboxProvider: { available: false } })
  const down = await expect({ ...STABLE, customerId: mine, sourceAmount: '1000000' }, 422, 'fx_quote_temporarily_unavailable', 'down', k)
  t.match(down, { hint: /Retry/, limits: { sourceCurrency: 'USDC' }, requested: { amount: '1000000' } }, 'with limits and requested')
  await set({ sandboxProvider: { available: true }, enabledPairs: ['USDT/*'] })
  await expect({ ...STABLE, customerId: mine, sourceAmount: '1000000' }, 409, 'fx_not_enabled_for_pair', 'USDC not enabled', k)
  await set({ fxEnabled: false, enabledPairs: ['*/*'] })
  await expect({ ...STABLE, customerId: mine, sourceAmount: '1000000' }, 409, 'fx_not_enabled_for_pair', 'FX off', k)
  const acting = await quote({ ...STABLE, sourceAmount: '1000000' }, { 'x-on-behalf-of': mine }, k)
  t.equal(acting.statusCode, 404, 'X-On-Behalf-Of naming another customer than customerId')
})

t.test('expiry: read lazily, then recorded by the timer, which sends fx_quote.expired', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/fx'), filterTypes: ['fx_quote.expired'] })
  const q = (await quote({ ...STABLE, sourceAmount: '2000000' })).json()
  const created = (await h.runtime.store.readStream(`fx_quote-${q.id}`)).at(-1)
  t.ok(await h.runtime.runner.waitFor(created?.position, 10_000), 'the timer consumer passed the creation')
  const timer = await h.runtime.schedulerDb
    .selectFrom('scheduled_commands')
    .selectAll()
    .where('id', '=', quoteExpiryTimerId(q.id))
    .executeTakeFirstOrThrow()
  t.equal(timer.due_at.toISOString(), q.expiresAt, 'a timer due when the quote expires')
  const log = { error: (obj: object, msg: string) => t.fail(msg, obj) }
  const runDue = (at: Date) => runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => at })
  t.equal((await runDue(new Date(Date.parse(q.expiresAt) - 1))).fired, 0, 'not due before expiresAt')
  now = new Date(Date.parse(q.expiresAt) + 1)
  t.match(
    (await h.request({ method: 'GET', url: `/v1/fx/quotes/${q.id}` })).json(),
    { status: 'EXPIRED', expiredAt: q.expiresAt },
    'lazily',
  )
  t.ok((await runDue(now)).fired >= 1, 'the timer fires (with those of the earlier quotes of this file)')
  const last = (await h.runtime.store.readStream(`fx_quote-${q.id}`)).at(-1)
  t.match(last, { type: 'FxQuoteExpired', metadata: { commandId: quoteExpiryTimerId(q.id) } })
  t.ok(await h.runtime.runner.waitFor(last?.position, 10_000), 'read models and the webhook subscriber passed it')
  t.match((await h.request({ method: 'GET', url: `/v1/fx/quotes/${q.id}` })).json(), { status: 'EXPIRED', expiredAt: now.toISOString() })
  await receiver.waitFor((r) => r.some((x) => x.path === '/fx' && x.body.includes(q.id)), 10_000, 'the fx_quote.expired delivery')
  const delivered = receiver.forPath('/fx').map((d) => verifyDelivery(ep.secret, d) as { type: string; data: unknown })
  t.same(
    delivered.filter((d) => (d.data as { id: string }).id === q.id),
    [
      {
        ...delivered.find((d) => (d.data as { id: string }).id === q.id),
        type: 'fx_quote.expired',
        data: { id: q.id, customerId, status: 'EXPIRED', expiresAt: q.expiresAt, expiredAt: now.toISOString() },
      },
    ],
    'one signed fx_quote.expired, with the quote, its customer and both times',
  )
  t.equal((await runDue(new Date(now.getTime() + 60_000))).fired, 0, 'never twice')
})
