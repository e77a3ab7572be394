// FX trades through HTTP, on a test clock: a quote accepted into a trade, its shape by status, its
// deposit and payout simulated and settled by the scheduler's timers, each terminal state (COMPLETED,
// EXPIRED, FAILED by the payout, the provider or the wallet's screening, REFUNDED for a short deposit
// or a returned payout) for a stablecoin pair, a fiat source (EUR on SEPA) and a fiat destination;
// every trade error code by its own condition; the one-active-trade slot freed by each end; the
// webhooks; and the ledger, verified clean with the spread kept as FX revenue.
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { verifyLedger } from '../../cli/ledger/verifyLedger.js'
import { sandboxWalletAddress } from '../../domain/shared/chain/index.js'
import { randomBytes } from 'node:crypto'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { approvedCustomer, eventually, ibanAccount } from '../transfers/transferWorld.js'

const STABLE = { sourceCurrency: 'USDC', sourceNetwork: 'ETHEREUM', destinationCurrency: 'USDT', destinationNetwork: 'TRON' }
const EUR_IN = { sourceCurrency: 'EUR', sourceRail: 'SEPA', destinationCurrency: 'USDC', destinationNetwork: 'ETHEREUM' }
const EUR_OUT = { sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'EUR', destinationRail: 'SEPA' }

let now = new Date('2026-11-28T10:00:00.000Z')
const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { clock: () => now, webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())
await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { fiatPairsEnabled: true } })
const customerId = await approvedCustomer(h)
const log = {
  error: (obj: object, msg: string) => {
    throw new Error(`${msg}: ${JSON.stringify(obj)}`)
  },
}
const later = (ms: number) => (now = new Date(now.getTime() + ms))

type Json = Record<string, unknown> & { id: string; status: string }

/** Helpers throw rather than assert: they run at the top level too, outside any subtest. */
function expect(res: { statusCode: number; body: string; json: <T>() => T }, status: number): Json {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`)
  return res.json<Json>()
}

async function wallet(
  chain: string,
  currency: string,
  address = sandboxWalletAddress(chain === 'TRON' ? 'TRON' : 'EVM', randomBytes(32)),
  owner = customerId,
) {
  const payload = { customerId: owner, walletAddress: address, chains: [chain], currencies: [currency] }
  return expect(await h.request({ method: 'POST', url: '/v1/external-wallets', payload }), 201).id
}

/** Waits until every consumer (the trade's timers among them) passed the stream's last event, then runs what is due now. */
async function tick(stream: string, at: Date = now): Promise<void> {
  const last = (await h.runtime.store.readStream(stream)).at(-1)
  if (!(await h.runtime.runner.waitFor(last?.position, 10_000))) throw new Error(`consumers did not pass ${stream}`)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => at })
  const after = (await h.runtime.store.readStream(stream)).at(-1)
  await h.runtime.runner.waitFor(after?.position, 10_000)
}

const quote = async (pair: object, sourceAmount: string, owner = customerId) =>
  expect(await h.request({ method: 'POST', url: '/v1/fx/quotes', payload: { ...pair, customerId: owner, sourceAmount } }), 201)
const accept = (body: object) => h.request({ method: 'POST', url: '/v1/fx/trades', payload: body })
const getTrade = async (id: string) => (await h.request({ method: 'GET', url: `/v1/fx/trades/${id}` })).json<Json>()
const simulate = (id: string, what: 'deposit' | 'payout', payload: object = {}) =>
  h.request({ method: 'POST', url: `/v1/fx/trades/${id}/simulate-${what}`, payload })

async function trade(pair: object, destinationAccountId: string, amount = '100000000', extra: object = {}, owner = customerId) {
  const q = await quote(pair, amount, owner)
  return expect(await accept({ quoteId: q.id, destinationAccountId, ...extra }), 201)
}

/** Deposit, settle, pay out and settle: the trade's way to its end with the payout's outcome. */
async function run(tr: Json, outcome = 'COMPLETED'): Promise<Json> {
  expect(await simulate(tr.id, 'deposit'), 202)
  later(5_000)
  await tick(`fx_trade-${tr.id}`)
  expect(await simulate(tr.id, 'payout', { outcome }), 202)
  later(5_000)
  await tick(`fx_trade-${tr.id}`)
  return getTrade(tr.id)
}

/** The trade's transfer view once it shows `status` (a workflow moves it after each of the trade's events). */
const transferView = (id: string, status: string) =>
  eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/transfers/${id}` })).json<Json>(),
    (v) => v.status === status,
    `transfer ${id} ${status}`,
  )

const STATE_FIELDS = ['screeningDeadline', 'depositInstructions', 'depositDeadline']
const absent = (t: { notOk: (v: unknown, m: string) => void }, body: Json, fields: string[]) => {
  for (const f of fields) t.notOk(f in body, `${body.status} carries no ${f}`)
}

/** The wallet's review, due EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs after its opening (on the real clock, as accounts open). */
const reviewWallet = (id: string) => tick(`account-${id}`, new Date(Date.now() + 6_000))

async function activeWallet(chain: string, currency: string, owner = customerId): Promise<string> {
  const id = await wallet(chain, currency, undefined, owner)
  await reviewWallet(id)
  return id
}

const tronWallet = await activeWallet('TRON', 'USDT')
const ethWallet = await activeWallet('ETHEREUM', 'USDC')
const eurAccount = await ibanAccount(h, customerId)

/** A customer of its own, for a test whose trades stay active (one active trade per source asset and customer). */
async function party() {
  const owner = await approvedCustomer(h)
  return { owner, tron: await activeWallet('TRON', 'USDT', owner), eur: await ibanAccount(h, owner) }
}

t.test('a stablecoin trade from quote to COMPLETED, its shape at each status, webhooks, the ledger', async (t) => {
  const ep = await createEndpoint(h, {
    url: receiver.url('/trades'),
    filterTypes: ['fx_trade.created', 'fx_trade.processing', 'fx_trade.completed', 'transfer.created', 'transfer.completed'],
  })
  const q = await quote(STABLE, '100000000')
  const res = await accept({ quoteId: q.id, destinationAccountId: tronWallet })
  t.equal(res.statusCode, 201, res.body)
  const tr = res.json<Json>()
  t.match(tr, {
    id: `tfr_${q.id.slice(4)}`,
    customerId,
    quoteId: q.id,
    status: 'AWAITING_DEPOSIT',
    sourceAmount: { currency: 'USDC', value: '100000000' },
    destinationAmount: { currency: 'USDT', value: '99750000' },
    fee: { currency: 'USDC', value: '250000' },
    exchangeRate: q.exchangeRate,
    depositInstructions: { type: 'crypto', paymentRail: 'ETHEREUM', toAddress: /^0x[0-9a-fA-F]{40}$/, amount: { value: '100000000' } },
    depositDeadline: new Date(now.getTime() + 30 * 60_000).toISOString(),
    destinationAccountId: tronWallet,
  })
  absent(t, tr, ['screeningDeadline'])
  t.same(await getTrade(tr.id), tr, 'read back as created')
  t.match((await h.request({ method: 'GET', url: `/v1/fx/quotes/${q.id}` })).json(), { status: 'ACCEPTED', tradeId: tr.id })
  const view = (await h.request({ method: 'GET', url: `/v1/transfers/${tr.id}` })).json()
  t.match(
    view,
    {
      id: tr.id,
      flow: 'FX',
      status: 'PENDING',
      fundingNeeded: true,
      quoteId: q.id,
      exchangeRate: q.exchangeRate,
      referenceRate: q.referenceRate,
      referenceProvider: q.referenceProvider,
      sourceAmount: { currency: 'USDC', value: '100000000' },
      destinationAmount: { currency: 'USDT', value: '99750000' },
      depositInstructions: { type: 'crypto', paymentRail: 'ETHEREUM' },
      destination: { paymentRail: 'TRON', externalAccountId: tronWallet, toAddress: /^T/ },
    },
    'the trade is a transfer of flow FX, at once',
  )
  const listed = (await h.request({ method: 'GET', url: `/v1/transfers?flow=FX&sourceCustomerId=${customerId}` })).json<{ data: Json[] }>()
  t.ok(
    listed.data.some((x) => x.id === tr.id),
    'listed with flow FX',
  )
  const direct = await h.request({ method: 'POST', url: `/v1/sandbox/transfers/${tr.id}/simulate-deposit`, payload: {} })
  t.match(
    { status: direct.statusCode, body: direct.json() },
    { status: 409, body: { code: 'transfer_moved_by_fx_trade' } },
    'moved only by its trade',
  )

  const again = await accept({ quoteId: q.id, destinationAccountId: tronWallet })
  t.match(
    { status: again.statusCode, body: again.json() },
    { status: 410, body: { code: 'fx_quote_not_pending' } },
    'a quote accepted once',
  )
  const second = await quote(STABLE, '5000000')
  const busy = await accept({ quoteId: second.id, destinationAccountId: tronWallet })
  t.match({ status: busy.statusCode, body: busy.json() }, { status: 409, body: { code: 'fx_trade_already_active' } }, 'one active trade')
  t.match(
    (await h.request({ method: 'GET', url: `/v1/fx/quotes/${second.id}` })).json(),
    { status: 'PENDING' },
    'the refused quote is untouched',
  )
  const early = await simulate(tr.id, 'payout')
  t.match({ status: early.statusCode, body: early.json() }, { status: 409, body: { code: 'fx_trade_not_processing' } })

  t.equal((await simulate(tr.id, 'deposit')).statusCode, 202)
  const twice = await simulate(tr.id, 'deposit')
  t.match({ status: twice.statusCode, body: twice.json() }, { status: 409, body: { code: 'fx_trade_not_awaiting_deposit' } })
  later(5_000)
  await tick(`fx_trade-${tr.id}`)
  const processing = await getTrade(tr.id)
  t.equal(processing.status, 'PROCESSING')
  absent(t, processing, STATE_FIELDS)
  t.equal((await simulate(tr.id, 'payout')).statusCode, 202)
  later(5_000)
  await tick(`fx_trade-${tr.id}`)
  const done = await getTrade(tr.id)
  t.match(done, { status: 'COMPLETED', sourceAmount: { value: '100000000' } })
  absent(t, done, [...STATE_FIELDS, 'failure', 'refund'])
  const completedView = await transferView(tr.id, 'COMPLETED')
  t.same(
    (completedView.legs as { status: string }[]).map((l) => l.status),
    ['COMPLETED', 'COMPLETED', 'COMPLETED'],
    'its legs: deposit, conversion, payout',
  )

  const freed = await accept({ quoteId: (await quote(STABLE, '5000000')).id, destinationAccountId: tronWallet })
  t.equal(freed.statusCode, 201, 'the slot is free once the trade completed')

  await receiver.waitFor((r) => r.filter((x) => x.path === '/trades' && x.body.includes(tr.id)).length >= 5, 10_000, 'five deliveries')
  const types = receiver
    .forPath('/trades')
    .map((d) => verifyDelivery(ep.secret, d) as { type: string; data: { id: string; status: string } })
    .filter((d) => d.data.id === tr.id)
    .map((d) => `${d.type}:${d.data.status}`)
  t.same(
    types.sort(),
    [
      'fx_trade.completed:COMPLETED',
      'fx_trade.created:AWAITING_DEPOSIT',
      'fx_trade.processing:PROCESSING',
      'transfer.completed:COMPLETED',
      'transfer.created:PENDING',
    ],
    'the trade’s own events, and transfer.* as for any transfer',
  )

  const ledger = await verifyLedger({ store: h.runtime.store, db: h.runtime.db, mode: h.runtime.projectionMode }, { sample: 'all' })
  t.equal(ledger.consistent, true, `ledger verify is clean: ${JSON.stringify(ledger.discrepancy)}`)
  const usdc = ledger.totals.find((x) => x.currency === 'USDC')
  t.equal(usdc?.fx_spread, '250000', 'the spread is FX revenue')
  t.equal(usdc?.fx_clearing, '0', 'nothing left in FX clearing')
})

t.test('quote and trade errors, each by its own condition', async (t) => {
  const code = async (body: object, status: number, expected: string) => {
    const res = await accept(body)
    t.match({ status: res.statusCode, code: res.json().code }, { status, code: expected }, expected)
  }
  await code({ quoteId: 'fxq_00000000000000000000000000', destinationAccountId: tronWallet }, 404, 'resource_not_found')
  const q = await quote(STABLE, '3000000')
  await code({ quoteId: q.id, destinationAccountId: 'ewa_00000000000000000000000000' }, 404, 'resource_not_found')
  await code({ quoteId: q.id, destinationAccountId: ethWallet }, 422, 'account_not_for_pair')
  const other = await approvedCustomer(h)
  const theirs = await h.request({
    method: 'POST',
    url: '/v1/external-wallets',
    payload: { customerId: other, walletAddress: sandboxWalletAddress('TRON', randomBytes(32)), chains: ['TRON'], currencies: ['USDT'] },
  })
  await code({ quoteId: q.id, destinationAccountId: theirs.json().id }, 422, 'account_not_owned_by_customer')
  later(61_000)
  await code({ quoteId: q.id, destinationAccountId: tronWallet }, 410, 'fx_quote_expired')
  await code({ quoteId: q.id, destinationAccountId: tronWallet, extra: 1 }, 400, 'invalid_request')
  const unknown = await simulate('tfr_00000000000000000000000000', 'deposit')
  t.equal(unknown.statusCode, 404)
  const p = await party()
  const mine = await getTrade((await trade(EUR_OUT, p.eur, '20000000', {}, p.owner)).id)
  const org = await h.newOrganization('Other')
  t.equal((await h.request({ method: 'GET', url: `/v1/fx/trades/${mine.id}`, apiKey: org.apiKey })).statusCode, 404, 'not for others')
  t.equal(
    (await h.request({ method: 'POST', url: `/v1/fx/trades/${mine.id}/simulate-deposit`, apiKey: org.apiKey, payload: {} })).statusCode,
    404,
  )
})

t.test('a fiat source (EUR on SEPA): bank instructions with a reference; a short deposit is REFUNDED', async (t) => {
  const tr = await trade(EUR_IN, ethWallet, '10000')
  t.match(tr, {
    status: 'AWAITING_DEPOSIT',
    depositInstructions: { type: 'bank', paymentRail: 'SEPA', iban: /^DE/, reference: /^TFR/, amount: { currency: 'EUR', value: '10000' } },
    depositDeadline: new Date(now.getTime() + 24 * 3_600_000).toISOString(),
  })
  t.equal((await simulate(tr.id, 'deposit', { amount: '9000' })).statusCode, 202)
  later(5_000)
  await tick(`fx_trade-${tr.id}`)
  const refunded = await getTrade(tr.id)
  t.match(refunded, { status: 'REFUNDED', refund: { reason: 'DEPOSIT_SHORT', amount: { currency: 'EUR', value: '9000' } } })
  absent(t, refunded, STATE_FIELDS)
  const excess = await trade(EUR_IN, ethWallet, '10000')
  t.equal((await simulate(excess.id, 'deposit', { amount: '10001' })).statusCode, 202)
  later(5_000)
  await tick(`fx_trade-${excess.id}`)
  t.match(await getTrade(excess.id), { status: 'REFUNDED', refund: { reason: 'DEPOSIT_EXCESS', amount: { value: '10001' } } })
  const done = await run(await trade(EUR_IN, ethWallet, '10000'))
  t.match(done, { status: 'COMPLETED', destinationAmount: { currency: 'USDC' } }, 'EUR on SEPA to USDC, completed')
})

t.test('a fiat destination (EUR on SEPA): COMPLETED, FAILED by the payout rail, REFUNDED when returned', async (t) => {
  const paid = await run(await trade(EUR_OUT, eurAccount, '20000000'))
  t.match(paid, { status: 'COMPLETED' })
  t.match(await transferView(paid.id, 'COMPLETED'), { flow: 'FX', destination: { paymentRail: 'SEPA', externalAccountId: eurAccount } })
  const failed = await run(await trade(EUR_OUT, eurAccount, '20000000'), 'FAILED')
  t.match(await transferView(failed.id, 'FAILED'), { flow: 'FX' }, 'FAILED as a transfer too')
  t.match(failed, { status: 'FAILED', failure: { code: 'payout_failed', refundedAmount: { currency: 'USDC', value: '20000000' } } })
  absent(t, failed, STATE_FIELDS)
  const returned = await run(await trade(EUR_OUT, eurAccount, '20000000'), 'RETURNED')
  t.match(returned, { status: 'REFUNDED', refund: { reason: 'PAYOUT_RETURNED', amount: { value: '20000000' } } })
  t.match(await transferView(returned.id, 'REVERSED'), { flow: 'FX' }, 'REFUNDED is REVERSED as a transfer')
  const ledger = await verifyLedger({ store: h.runtime.store, db: h.runtime.db, mode: h.runtime.projectionMode }, { sample: 'all' })
  t.equal(ledger.consistent, true, JSON.stringify(ledger.discrepancy))
})

t.test('no deposit by the deadline: EXPIRED by the timer, and the slot is free again', async (t) => {
  const p = await party()
  const tr = await trade(STABLE, p.tron, '4000000', {}, p.owner)
  now = new Date(Date.parse(String(tr.depositDeadline)) - 1)
  await tick(`fx_trade-${tr.id}`)
  t.equal((await getTrade(tr.id)).status, 'AWAITING_DEPOSIT', 'not before the deadline')
  later(1)
  await tick(`fx_trade-${tr.id}`)
  const expired = await getTrade(tr.id)
  t.equal(expired.status, 'EXPIRED')
  await transferView(tr.id, 'CANCELLED')
  absent(t, expired, STATE_FIELDS)
  const late = await simulate(tr.id, 'deposit')
  t.match({ status: late.statusCode, body: late.json() }, { status: 409, body: { code: 'fx_trade_not_awaiting_deposit' } })
  const next = await accept({ quoteId: (await quote(STABLE, '4000000', p.owner)).id, destinationAccountId: p.tron })
  t.equal(next.statusCode, 201, 'slot freed')
})

t.test('a deposit after the deadline, before the timer ran, is REFUNDED as late', async (t) => {
  const tr = await trade(EUR_IN, ethWallet, '10000')
  now = new Date(Date.parse(String(tr.depositDeadline)) + 1)
  t.equal((await simulate(tr.id, 'deposit')).statusCode, 202)
  later(5_000)
  await tick(`fx_trade-${tr.id}`)
  t.match(await getTrade(tr.id), { status: 'REFUNDED', refund: { reason: 'DEPOSIT_LATE' } })
})

t.test('the provider unavailable at settlement: FAILED, the deposit returned', async (t) => {
  const tr = await trade(EUR_OUT, eurAccount, '20000000')
  await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { sandboxProvider: { available: false } } })
  t.equal((await simulate(tr.id, 'deposit')).statusCode, 202)
  later(5_000)
  await tick(`fx_trade-${tr.id}`)
  await h.request({ method: 'PUT', url: '/v1/sandbox/fx/settings', payload: { sandboxProvider: { available: true } } })
  t.match(await getTrade(tr.id), { status: 'FAILED', failure: { code: 'fx_provider_unavailable', refundedAmount: { value: '20000000' } } })
})

t.test('a source wallet in review: PENDING_WALLET_APPROVAL, then AWAITING_DEPOSIT, or FAILED when rejected', async (t) => {
  const p = await party()
  const source = await wallet('ETHEREUM', 'USDC', undefined, p.owner)
  const tr = await trade(STABLE, p.tron, '6000000', { sourceAccountId: source }, p.owner)
  t.match(tr, { status: 'PENDING_WALLET_APPROVAL', sourceAccountId: source, screeningDeadline: /Z$/ })
  absent(t, tr, ['depositInstructions', 'depositDeadline'])
  t.same(await getTrade(tr.id), tr)
  await reviewWallet(source)
  later(7_000)
  await tick(`fx_trade-${tr.id}`)
  t.match(await getTrade(tr.id), { status: 'AWAITING_DEPOSIT', depositInstructions: { type: 'crypto' }, depositDeadline: /Z$/ })
  t.equal((await simulate(tr.id, 'deposit')).statusCode, 202, 'then funded as any other')

  const burn = await wallet('BASE', 'USDC', '0x000000000000000000000000000000000000dEaD', p.owner)
  const rejected = await trade(EUR_OUT, p.eur, '20000000', { sourceAccountId: burn }, p.owner)
  await reviewWallet(burn)
  later(7_000)
  await tick(`fx_trade-${rejected.id}`)
  t.match(await getTrade(rejected.id), { status: 'FAILED', failure: { code: 'wallet_screening_failed', refundedAmount: null } })
})
