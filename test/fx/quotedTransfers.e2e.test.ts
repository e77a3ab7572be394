// POST /v1/transfers with a quoteId: the transfer is priced by the sender's firm quote (its amounts,
// exchangeRate and reference rate), consumes it under the trade's 410 rules, runs to COMPLETED on
// the rails engine with a clean ledger; a quote that does not fit is 422 quote_mismatch and stays
// PENDING; an unknown quote is 404, a quote of another organization too.
import t from 'tap'
import { verifyLedger } from '../../cli/ledger/verifyLedger.js'
import { keyedClient } from '../harness/httpClient.js'
import { startTestApp } from '../harness/testApp.js'
import { advanceUntil, approvedCustomer, simulateDeposit, usBankAccount } from '../transfers/transferWorld.js'

let now = new Date()
const h = await startTestApp(t, {}, { clock: () => now })
await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { fiatPairsEnabled: true } })
const customerId = await approvedCustomer(h)
const bank = await usBankAccount(h, customerId)
const PAIR = { sourceCurrency: 'USDC', sourceNetwork: 'SOLANA', destinationCurrency: 'USD', destinationRail: 'ACH' }

const quote = async (pair: object = PAIR, owner = customerId) => {
  const res = await h.request({ method: 'POST', url: '/v1/fx/quotes', payload: { ...pair, customerId: owner, sourceAmount: '20000000' } })
  if (res.statusCode !== 201) throw new Error(res.body)
  return res.json<{
    id: string
    exchangeRate: string
    referenceRate: string
    sourceAmount: { value: string }
    destinationAmount: { value: string }
  }>()
}
const transfer = (quoteId: string, extra: object = {}) =>
  h.request({
    method: 'POST',
    url: '/v1/transfers',
    payload: {
      sourceCustomerId: customerId,
      source: { paymentRail: 'SOLANA', currency: 'USDC' },
      destination: { accountId: bank, paymentRail: 'ACH' },
      quoteId,
      ...extra,
    },
  })
const quoteStatus = async (id: string) =>
  (await h.request({ method: 'GET', url: `/v1/fx/quotes/${id}` })).json<{ status: string; tradeId: string }>()

t.test('priced by the quote, which it consumes; completed with a clean ledger', async (t) => {
  const q = await quote()
  const res = await transfer(q.id)
  t.equal(res.statusCode, 201, res.body)
  const tr = res.json<{ id: string; status: string }>()
  t.match(tr, {
    quoteId: q.id,
    flow: 'CRYPTO_TO_FIAT',
    status: 'PENDING',
    fundingNeeded: true,
    exchangeRate: q.exchangeRate,
    referenceRate: q.referenceRate,
    sourceAmount: { currency: 'USDC', value: q.sourceAmount.value },
    destinationAmount: { currency: 'USD', value: q.destinationAmount.value },
  })
  t.match(await quoteStatus(q.id), { status: 'ACCEPTED', tradeId: tr.id }, 'the quote is taken by the transfer')
  const again = await transfer(q.id)
  t.match({ status: again.statusCode, code: again.json().code }, { status: 410, code: 'fx_quote_not_pending' })
  const asTrade = await h.request({ method: 'POST', url: '/v1/fx/trades', payload: { quoteId: q.id, destinationAccountId: bank } })
  t.match(
    { status: asTrade.statusCode, body: asTrade.json() },
    { status: 410, body: { code: 'fx_quote_not_pending', message: new RegExp(tr.id) } },
    'nor can a trade take it: the message names the transfer that did',
  )
  t.match(await simulateDeposit(h, tr.id), { status: 'PROCESSING' }, 'the deposit arrives')
  t.match(await advanceUntil(h, tr.id, 'COMPLETED'), { status: 'COMPLETED', destinationAmount: { value: q.destinationAmount.value } })
  const ledger = await verifyLedger({ store: h.runtime.store, db: h.runtime.db, mode: h.runtime.projectionMode }, { sample: 'all' })
  t.equal(ledger.consistent, true, JSON.stringify(ledger.discrepancy))
})

t.test('a quote that does not fit: 422 quote_mismatch naming each field, the quote still PENDING', async (t) => {
  const q = await quote({ ...PAIR, destinationCurrency: 'EUR', destinationRail: 'SEPA' })
  const res = await transfer(q.id, { sourceAmount: '1', developerFeeFixed: '5' })
  t.equal(res.statusCode, 422, res.body)
  t.match(res.json(), { code: 'quote_mismatch' })
  const fields = (res.json().details as { field: string }[]).map((d) => d.field).sort()
  t.same(fields, ['destination.currency', 'developerFeeFixed', 'sourceAmount'])
  t.equal((await quoteStatus(q.id)).status, 'PENDING')
  const other = await approvedCustomer(h)
  const theirs = await quote(PAIR, other)
  const mismatch = await transfer(theirs.id)
  t.match(
    { status: mismatch.statusCode, body: mismatch.json() },
    { status: 422, body: { code: 'quote_mismatch', details: [{ field: 'quoteId' }] } },
  )
})

t.test('unknown, another organization’s, or expired: 404, 404, 410', async (t) => {
  t.equal((await transfer('fxq_00000000000000000000000000')).statusCode, 404)
  const org = await h.newOrganization('Other')
  const theirCustomer = await approvedCustomer(keyedClient(h, org.apiKey))
  const pair = { sourceCurrency: 'USDC', sourceNetwork: 'SOLANA', destinationCurrency: 'USDT', destinationNetwork: 'TRON' }
  const payload = { ...pair, customerId: theirCustomer, sourceAmount: '20000000' }
  const foreign = await h.request({ method: 'POST', url: '/v1/fx/quotes', apiKey: org.apiKey, payload })
  t.equal(foreign.statusCode, 201, foreign.body)
  t.equal((await transfer(foreign.json().id)).statusCode, 404, 'another organization’s quote')
  now = new Date(Date.now() - 120_000)
  const stale = await quote()
  now = new Date()
  const res = await transfer(stale.id)
  t.match({ status: res.statusCode, code: res.json().code }, { status: 410, code: 'fx_quote_expired' })
})
