// One quote makes one trade, and one customer holds one active trade per source asset and network,
// however many requests race: 20 concurrent accepts of one quote make exactly one trade (the rest
// 410 fx_quote_not_pending); 20 concurrent trades on 20 quotes of one slot leave exactly one active
// (the rest 409 fx_trade_already_active, their quotes still PENDING). A claim whose trade never
// appeared (a crash between the two writes) holds the slot only for FX_TRADE_LIMITS.orphanClaimMs.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { fxTradeSlotCommands, fxTradeSlotsStreamOf } from '../../commands/fx-trades/tradeCommands.js'
import { FX_TRADE_LIMITS } from '../../domain/fx-trade/decider.js'
import { sandboxWalletAddress } from '../../domain/shared/chain/index.js'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer } from '../transfers/transferWorld.js'

let now = new Date('2026-11-28T12:00:00.000Z')
const h = await startTestApp(t, {}, { clock: () => now })
const PAIR = { sourceCurrency: 'USDC', sourceNetwork: 'SOLANA', destinationCurrency: 'USDT', destinationNetwork: 'TRON' }

async function customerWithWallet() {
  const customerId = await approvedCustomer(h)
  const payload = { customerId, walletAddress: sandboxWalletAddress('TRON', randomBytes(32)), chains: ['TRON'], currencies: ['USDT'] }
  const wallet = (await h.request({ method: 'POST', url: '/v1/external-wallets', payload })).json<{ id: string }>().id
  const log = { error: (obj: object, msg: string) => console.error(msg, obj) }
  const opened = (await h.runtime.store.readStream(`account-${wallet}`)).at(-1)
  await h.runtime.runner.waitFor(opened?.position, 10_000)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => new Date(Date.now() + 6_000) })
  return { customerId, wallet }
}

const quote = async (customerId: string) =>
  (await h.request({ method: 'POST', url: '/v1/fx/quotes', payload: { ...PAIR, customerId, sourceAmount: '2000000' } })).json<{
    id: string
  }>().id
const activeTrades = async (customerId: string) =>
  (await h.runtime.db.selectFrom('fx_trades').select(['id', 'status']).where('customer_id', '=', customerId).execute()).filter(
    (row) => !['COMPLETED', 'EXPIRED', 'FAILED', 'REFUNDED'].includes(row.status),
  )

t.test('20 concurrent accepts of one quote make exactly one trade', async (t) => {
  const { customerId, wallet } = await customerWithWallet()
  const quoteId = await quote(customerId)
  const replies = await Promise.all(
    Array.from({ length: 20 }, () =>
      h.request({ method: 'POST', url: '/v1/fx/trades', payload: { quoteId, destinationAccountId: wallet } }),
    ),
  )
  const statuses = replies.map((r) => r.statusCode)
  t.equal(statuses.filter((s) => s === 201).length, 1, 'one trade')
  t.equal(statuses.filter((s) => s === 410).length, 19, 'the rest: gone')
  t.ok(
    replies.filter((r) => r.statusCode === 410).every((r) => r.json().code === 'fx_quote_not_pending'),
    'each says fx_quote_not_pending',
  )
  t.equal((await activeTrades(customerId)).length, 1, 'one active trade')
  const quoteRead = (await h.request({ method: 'GET', url: `/v1/fx/quotes/${quoteId}` })).json()
  t.match(quoteRead, { status: 'ACCEPTED', tradeId: replies.find((r) => r.statusCode === 201)?.json().id })
})

t.test('20 concurrent trades on 20 quotes of one slot leave exactly one active', async (t) => {
  const { customerId, wallet } = await customerWithWallet()
  const quotes = await Promise.all(Array.from({ length: 20 }, () => quote(customerId)))
  t.equal(new Set(quotes).size, 20)
  const replies = await Promise.all(
    quotes.map((quoteId) => h.request({ method: 'POST', url: '/v1/fx/trades', payload: { quoteId, destinationAccountId: wallet } })),
  )
  const statuses = replies.map((r) => r.statusCode)
  t.equal(statuses.filter((s) => s === 201).length, 1, 'one trade')
  t.equal(statuses.filter((s) => s === 409).length, 19, 'the rest: conflict')
  t.ok(replies.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'fx_trade_already_active'))
  t.equal((await activeTrades(customerId)).length, 1, 'one active trade')
  const reads = await Promise.all(quotes.map(async (id) => (await h.request({ method: 'GET', url: `/v1/fx/quotes/${id}` })).json().status))
  t.equal(reads.filter((s) => s === 'ACCEPTED').length, 1, 'one quote accepted')
  t.equal(reads.filter((s) => s === 'PENDING').length, 19, 'the refused ones stay PENDING, to be used later')
})

t.test('a claim whose trade never appeared frees its slot after the bound', async (t) => {
  const { customerId, wallet } = await customerWithWallet()
  const orphan = 'tfr_01m8zzzzzzzzzzzzzzzzzzzzzz'
  await h.runtime.commands.handle(
    fxTradeSlotCommands.decider,
    fxTradeSlotsStreamOf(customerId),
    {
      type: 'ClaimFxTradeSlot',
      organizationId: h.org.organizationId,
      customerId,
      slotKey: 'USDC:SOLANA',
      tradeId: orphan,
      holder: null,
      now: now.toISOString(),
    },
    { organizationId: h.org.organizationId, requestId: 'req_orphaned_claim', actor: 'test' },
  )
  const refused = await h.request({
    method: 'POST',
    url: '/v1/fx/trades',
    payload: { quoteId: await quote(customerId), destinationAccountId: wallet },
  })
  t.match(
    { status: refused.statusCode, body: refused.json() },
    { status: 409, body: { code: 'fx_trade_already_active' } },
    'held while recent',
  )
  now = new Date(now.getTime() + FX_TRADE_LIMITS.orphanClaimMs)
  const taken = await h.request({
    method: 'POST',
    url: '/v1/fx/trades',
    payload: { quoteId: await quote(customerId), destinationAccountId: wallet },
  })
  t.equal(taken.statusCode, 201, 'taken over once the bound passed')
})
