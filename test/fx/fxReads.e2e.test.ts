// The FX reads through HTTP: the settings a sandbox organization starts with, the pair list (and a
// customer's narrowing of it), the indicative rate both ways with the spread (the organization's and
// a customer's own), its 30-second cache, and every error code of the rate operation, each produced
// by its own condition. Production: FX off, and the sandbox's own FX routes do not exist.
import t from 'tap'
import { ALL_CORRIDORS } from '../../domain/fx/corridors.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer } from '../transfers/transferWorld.js'

const STABLE = 'sourceCurrency=USDC&sourceNetwork=ETHEREUM&destinationCurrency=USDT&destinationNetwork=TRON'

t.test('a new sandbox organization: stablecoin pairs and rates on, fiat pairs off', async (t) => {
  const h = await startTestApp(t)
  const settings = (await h.request({ method: 'GET', url: '/v1/fx/settings' })).json()
  t.match(settings, {
    fxEnabled: true,
    fiatPairsEnabled: false,
    indicativeRatesEnabled: true,
    enabledPairs: ['*/*'],
    spreadBps: 25,
    corridorLimitsUsd: { min: '1', max: '10000' },
    sandboxProvider: { available: true, capacityUsd: '100000' },
    updatedAt: null,
  })

  const listed = await h.request({ method: 'GET', url: '/v1/fx/pairs' })
  t.equal(listed.statusCode, 200)
  t.equal(listed.headers['cache-control'], 'private, max-age=30')
  const pairs = listed.json()
  const stablecoin = ALL_CORRIDORS.filter((p) => p.source.kind === 'CRYPTO' && p.destination.kind === 'CRYPTO')
  t.equal(pairs.total, stablecoin.length, 'every stablecoin corridor, no fiat one')
  t.equal(pairs.data.length, pairs.total)
  t.ok(pairs.data.every((p: { kind: string }) => p.kind === 'STABLECOIN'))
  t.same(
    pairs.data.find((p: { source: { network: string }; destination: { network: string } }) => {
      return p.source.network === 'ETHEREUM' && p.destination.network === 'TRON'
    }),
    {
      source: { currency: 'USDC', network: 'ETHEREUM' },
      destination: { currency: 'USDT', network: 'TRON' },
      kind: 'STABLECOIN',
      limits: { sourceCurrency: 'USDC', min: '1000000', max: '10000000000' },
    },
    'a pair with its limits in minor units of the source',
  )
  const narrowed = (await h.request({ method: 'GET', url: '/v1/fx/pairs?sourceCurrency=USAT&destinationCurrency=USDC' })).json()
  t.ok(narrowed.total > 0 && narrowed.data.every((p: { source: { currency: string } }) => p.source.currency === 'USAT'))
})

t.test('the indicative rate: spread applied both ways beside the mid-market rate, cached 30 seconds', async (t) => {
  let now = new Date('2026-11-28T10:00:00.000Z')
  const h = await startTestApp(t, {}, { clock: () => now })
  const first = await h.request({ method: 'GET', url: `/v1/fx/rates?${STABLE}` })
  t.equal(first.statusCode, 200, first.body)
  t.same(first.json(), {
    source: { currency: 'USDC', network: 'ETHEREUM' },
    destination: { currency: 'USDT', network: 'TRON' },
    rate: '0.9975',
    inverseRate: '1.002506265664',
    referenceRate: '1',
    inverseReferenceRate: '1',
    referenceProvider: 'SANDBOX_REFERENCE',
    referenceRateAsOf: '2026-11-28T10:00:00.000Z',
    spreadBps: 25,
    pricing: 'ORGANIZATION',
    onBehalfOf: null,
    asOf: '2026-11-28T10:00:00.000Z',
    cachedUntil: '2026-11-28T10:00:30.000Z',
  })
  t.equal(first.headers['cache-control'], 'private, max-age=30')

  now = new Date('2026-11-28T10:00:20.000Z')
  const again = await h.request({ method: 'GET', url: `/v1/fx/rates?${STABLE}` })
  t.equal(again.json().asOf, '2026-11-28T10:00:00.000Z', 'the same answer within 30 seconds')
  t.equal(again.headers['cache-control'], 'private, max-age=10')

  now = new Date('2026-11-28T10:00:31.000Z')
  t.equal((await h.request({ method: 'GET', url: `/v1/fx/rates?${STABLE}` })).json().asOf, '2026-11-28T10:00:31.000Z', 'then anew')

  // A fiat pair: EUR on SEPA to USDC, for an approved customer, once fiat pairs are on.
  await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { fiatPairsEnabled: true } })
  const customerId = await approvedCustomer(h)
  const fiat = await h.request({
    method: 'GET',
    url: `/v1/fx/rates?sourceCurrency=EUR&sourceRail=SEPA&destinationCurrency=USDC&destinationNetwork=SOLANA&onBehalfOf=${customerId}`,
  })
  t.equal(fiat.statusCode, 200, fiat.body)
  t.match(fiat.json(), {
    referenceRate: '1.086956521739',
    inverseReferenceRate: '0.92',
    rate: '1.084239130435',
    onBehalfOf: customerId,
    pricing: 'ORGANIZATION',
  })

  // The customer's own pricing replaces the organization's, and clearing it returns to it.
  const priced = await h.request({ method: 'PUT', url: `/v1/sandbox/fx/customers/${customerId}/pricing`, payload: { spreadBps: 10 } })
  t.same(priced.json(), { customerId, spreadBps: 10, effectiveSpreadBps: 10, pricing: 'CUSTOMER' })
  const read = await h.request({ method: 'GET', url: `/v1/fx/customers/${customerId}/pricing` })
  t.same(read.json(), priced.json(), 'read back as set')
  const own = (await h.request({ method: 'GET', url: `/v1/fx/rates?${STABLE}&onBehalfOf=${customerId}` })).json()
  t.match(own, { rate: '0.999', spreadBps: 10, pricing: 'CUSTOMER', onBehalfOf: customerId })
  await h.request({ method: 'PUT', url: `/v1/sandbox/fx/customers/${customerId}/pricing`, payload: { spreadBps: null } })
  now = new Date('2026-11-28T10:01:10.000Z') // the cached rate of this customer and pair lapses first
  const back = (await h.request({ method: 'GET', url: `/v1/fx/rates?${STABLE}&onBehalfOf=${customerId}` })).json()
  t.match(back, { rate: '0.9975', spreadBps: 25, pricing: 'ORGANIZATION' })
})

t.test('the pair list for a customer: only the pairs its capabilities allow', async (t) => {
  const h = await startTestApp(t)
  await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { fiatPairsEnabled: true } })
  const swaps = await approvedCustomer(h, ['STABLECOIN_PAYIN', 'STABLECOIN_PAYOUT', 'STABLECOIN_SWAPS'])
  const euros = await approvedCustomer(h, ['STABLECOIN_PAYIN', 'SWIFT_PAYOUT', 'EUR_FX_PAYOUT'])
  const all = (await h.request({ method: 'GET', url: '/v1/fx/pairs' })).json()
  t.equal(all.total, ALL_CORRIDORS.length, 'fiat pairs listed once enabled')
  type Listed = { source: { currency: string }; destination: { currency: string; network?: string; rail?: string } }
  const forSwaps = (await h.request({ method: 'GET', url: `/v1/fx/pairs?onBehalfOf=${swaps}` })).json()
  t.ok(forSwaps.total > 0, 'some pairs')
  t.ok(
    forSwaps.data.every((p: Listed) => p.destination.network !== undefined),
    'no fiat payout without a payout capability (a SEPA pay-in needs none, as for transfers)',
  )
  const forEuros = (await h.request({ method: 'GET', url: '/v1/fx/pairs', headers: { 'x-on-behalf-of': euros } })).json()
  const destinations = new Set(forEuros.data.map((p: Listed) => `${p.destination.currency}.${p.destination.rail}`))
  t.same(
    [...destinations].sort(),
    ['EUR.SEPA', 'EUR.SWIFT', 'USD.SWIFT'],
    'EUR with EUR_FX_PAYOUT, USD on SWIFT with SWIFT_PAYOUT; no other currency, no stablecoin payout',
  )
  const mismatch = await h.request({ method: 'GET', url: `/v1/fx/pairs?onBehalfOf=${swaps}`, headers: { 'x-on-behalf-of': euros } })
  t.equal(mismatch.statusCode, 404, 'onBehalfOf and X-On-Behalf-Of naming two customers')
  const other = await h.newOrganization('Other')
  const foreign = await h.request({ method: 'GET', url: `/v1/fx/pairs?onBehalfOf=${swaps}`, apiKey: other.apiKey })
  t.equal(foreign.statusCode, 404, "another organization's customer is not found")
})

t.test('every error code of the rate operation, each by its own condition', async (t) => {
  const h = await startTestApp(t)
  const customerId = await approvedCustomer(h)
  const rate = async (query: string, apiKey?: string) => {
    const res = await h.request({ method: 'GET', url: `/v1/fx/rates?${query}`, ...(apiKey ? { apiKey } : {}) })
    return { status: res.statusCode, body: res.json() }
  }
  const expect = async (query: string, status: number, code: string, what: string, apiKey?: string) => {
    const { status: got, body } = await rate(query, apiKey)
    t.equal(got, status, `${what}: ${status}`)
    t.equal(body.code, code, `${what}: ${code}`)
    return body
  }

  await expect('sourceNetwork=ETHEREUM&destinationCurrency=USDT&destinationNetwork=TRON', 400, 'invalid_request', 'no sourceCurrency')
  const shape = await expect(
    'sourceCurrency=USDC&sourceRail=SEPA&destinationCurrency=EUR&destinationNetwork=ETHEREUM',
    400,
    'fx_pair_shape_invalid',
    'slots against the kinds',
  )
  t.same(
    shape.details.map((d: { field: string }) => d.field),
    ['sourceNetwork', 'sourceRail', 'destinationRail', 'destinationNetwork'],
    'each slot named',
  )
  await expect(
    'sourceCurrency=EUR&sourceRail=SWIFT&destinationCurrency=USDC&destinationNetwork=SOLANA',
    400,
    'fx_source_rail_not_supported',
    'SWIFT is never a source',
  )
  await expect(
    'sourceCurrency=GBP&sourceRail=SEPA&destinationCurrency=USDC&destinationNetwork=SOLANA',
    400,
    'fx_source_rail_not_supported',
    'GBP comes on FASTER_PAYMENTS',
  )
  await expect(
    'sourceCurrency=BTC&sourceNetwork=BITCOIN&destinationCurrency=USDC&destinationNetwork=SOLANA',
    404,
    'fx_pair_unsupported',
    'BTC',
  )
  await expect(
    'sourceCurrency=USDC&sourceNetwork=TRON&destinationCurrency=USDT&destinationNetwork=TRON',
    404,
    'fx_pair_unsupported',
    'USDC on Tron',
  )
  await expect(
    'sourceCurrency=USDC&sourceNetwork=BASE&destinationCurrency=EUR&destinationRail=ACH',
    404,
    'fx_pair_unsupported',
    'EUR on ACH',
  )
  await expect(
    'sourceCurrency=XYZ&sourceNetwork=BASE&destinationCurrency=EUR&destinationRail=SEPA',
    404,
    'fx_pair_unsupported',
    'no currency',
  )
  await expect(
    'sourceCurrency=USDC&sourceNetwork=BASE&destinationCurrency=USDC&destinationNetwork=SOLANA',
    404,
    'fx_pair_unsupported',
    'USDC to USDC',
  )
  const fiat = 'sourceCurrency=USDC&sourceNetwork=BASE&destinationCurrency=EUR&destinationRail=SEPA'
  await expect(fiat, 400, 'fx_rates_on_behalf_of_required', 'a fiat pair without a customer')
  await expect(`${fiat}&onBehalfOf=${customerId}`, 403, 'fx_fiat_pairs_not_enabled', 'fiat pairs off (the default)')

  const set = (payload: object) => h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload })
  t.equal((await set({ fiatPairsEnabled: true, enabledPairs: ['USDC/*'] })).statusCode, 200)
  t.equal((await rate(`${fiat}&onBehalfOf=${customerId}`)).status, 200, 'fiat pair once enabled')
  await expect(
    'sourceCurrency=USDT&sourceNetwork=TRON&destinationCurrency=USDC&destinationNetwork=SOLANA',
    409,
    'fx_not_enabled_for_pair',
    'USDT not enabled',
  )
  await expect(
    `sourceCurrency=USDC&sourceNetwork=BASE&destinationCurrency=USDT&destinationNetwork=TRON&onBehalfOf=cus_${'0'.repeat(26)}`,
    404,
    'resource_not_found',
    'unknown customer',
  )

  const other = await h.newOrganization('Switched off')
  const otherKey = other.apiKey
  const setOther = (payload: object) => h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload, apiKey: otherKey })
  await setOther({ sandboxProvider: { available: false } })
  const down = await expect(STABLE, 422, 'fx_quote_temporarily_unavailable', 'provider unavailable', otherKey)
  t.type(down.hint, 'string', 'with a hint')
  t.notOk('limits' in down || 'requested' in down, 'never limits or requested on a rate')
  await setOther({ sandboxProvider: { available: true, capacityUsd: '0' } })
  const dry = await expect(STABLE, 422, 'fx_quote_capacity_exhausted', 'no capacity', otherKey)
  t.type(dry.hint, 'string', 'with a hint')
  t.notOk('limits' in dry || 'requested' in dry)
  await setOther({ indicativeRatesEnabled: false })
  await expect(STABLE, 403, 'fx_rates_not_enabled', 'rates off', otherKey)
  await setOther({ indicativeRatesEnabled: true, fxEnabled: false })
  await expect(STABLE, 409, 'fx_not_enabled_for_pair', 'FX off', otherKey)
  t.equal((await h.request({ method: 'GET', url: '/v1/fx/pairs', apiKey: otherKey })).json().total, 0, 'no pairs with FX off')
  t.equal((await rate(STABLE)).status, 200, 'the first organization is untouched')
})

t.test('production: FX off until the operator enables it, and no sandbox FX routes', async (t) => {
  const h = await startTestApp(t, { APP_ENV: 'production' })
  const settings = (await h.request({ method: 'GET', url: '/v1/fx/settings' })).json()
  t.match(settings, { fxEnabled: false, indicativeRatesEnabled: false, corridorLimitsUsd: { min: '10', max: '1000000' } })
  t.notOk('sandboxProvider' in settings)
  t.equal((await h.request({ method: 'GET', url: `/v1/fx/rates?${STABLE}` })).json().code, 'fx_rates_not_enabled')
  const put = await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { fxEnabled: true } })
  t.equal(put.statusCode, 403)
  t.equal(put.json().code, 'sandbox_only')
  // The trade simulations are refused before anything else, for any trade id (403 always in production).
  for (const url of [
    '/v1/fx/trades/tfr_00000000000000000000000000/simulate-deposit',
    '/v1/fx/trades/tfr_00000000000000000000000000/simulate-payout',
    '/v1/sandbox/fx/trades/tfr_00000000000000000000000000/advance',
  ]) {
    const res = await h.request({ method: 'POST', url, payload: {} })
    t.match({ status: res.statusCode, code: res.json().code }, { status: 403, code: 'sandbox_only' }, url)
  }
})
