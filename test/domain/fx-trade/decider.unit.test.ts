// The FX trade and slot deciders, given/when/then: a trade's status table (screening, deposit,
// settlement, payout, deadline), each terminal state final; every money movement balanced per
// currency, with FX clearing empty once the trade has ended; and the one-active-trade slot.
import t from 'tap'
import { type FxTradeCommand, fxTradeDecider } from '../../../domain/fx-trade/decider.js'
import type { FxTradeEvent } from '../../../domain/fx-trade/events.js'
import { fxTradeSlotDecider } from '../../../domain/fx-trade-slot/decider.js'
import { sumsByCurrency } from '../../../domain/ledger/index.js'
import { spec } from '../deciderSpec.js'

const trade = spec(fxTradeDecider)
const slots = spec(fxTradeSlotDecider)
const at = (minutes: number) => new Date(Date.parse('2026-11-28T10:00:00.000Z') + minutes * 60_000).toISOString()
const ids = { organizationId: 'org_a', tradeId: 'tfr_1' }
const ref = { ...ids, customerId: 'cus_1', quoteId: 'fxq_1' }
const instructions = {
  type: 'crypto' as const,
  paymentRail: 'ETHEREUM',
  toAddress: '0x1111111111111111111111111111111111111111',
  amount: { currency: 'USDC', amountMinor: '100000000' },
  blockchainMemo: null,
  accountId: null,
  bankName: null,
  routingNumber: null,
  accountNumber: null,
  iban: null,
  swiftBic: null,
  reference: null,
}
const terms = {
  customerId: 'cus_1',
  quoteId: 'fxq_1',
  pair: { sourceCurrency: 'USDC', sourceNetwork: 'ETHEREUM' as const, destinationCurrency: 'EUR', destinationRail: 'SEPA' as const },
  slotKey: 'USDC:ETHEREUM',
  sourceAmountMinor: '100000000',
  destinationAmountMinor: '9177',
  feeMinor: '250000',
  spreadBps: 25,
  exchangeRate: '0.00009177',
  rate: '0.9177',
  referenceRate: '0.92',
  referenceProvider: 'SANDBOX_REFERENCE',
  referenceRateAsOf: at(0),
  sourceAccountId: null,
  destinationAccountId: 'eba_1',
  destination: { toAddress: null, bankName: 'Commerzbank', bankCountryCode: 'DE' },
  depositInstructions: instructions,
  depositWindowMs: 30 * 60_000,
}
const create = (inReview = false): FxTradeCommand => ({
  type: 'CreateFxTrade',
  ...ids,
  now: at(0),
  trade: {
    ...terms,
    status: inReview ? 'PENDING_WALLET_APPROVAL' : 'AWAITING_DEPOSIT',
    depositDeadline: inReview ? null : at(30),
    screeningDeadline: inReview ? at(15) : null,
  },
})
const created = fxTradeDecider.decide(create(), fxTradeDecider.initialState())
const tracking = { txHash: '0xabc' }
const received = (amountMinor = '100000000', minute = 1): FxTradeEvent => ({
  type: 'FxTradeDepositReceived',
  data: { ...ref, amountMinor, rail: 'ETHEREUM', tracking, at: at(minute) },
})
const settle = (providerAvailable = true): FxTradeCommand => ({ type: 'SettleFxTradeDeposit', ...ids, providerAvailable, now: at(2) })
const decided = (given: FxTradeEvent[], command: FxTradeCommand) =>
  fxTradeDecider.decide(command, given.reduce(fxTradeDecider.evolve, fxTradeDecider.initialState()))
const processing = [...created, received(), ...decided([...created, received()], settle())]
const payoutRequested = (outcome: 'COMPLETED' | 'FAILED' | 'RETURNED'): FxTradeEvent => ({
  type: 'FxTradePayoutRequested',
  data: { ...ref, outcome, rail: 'SEPA', at: at(3) },
})
const completePayout: FxTradeCommand = { type: 'CompleteFxTradePayout', ...ids, tracking: {}, now: at(4) }

/** Every ledger transaction the events carry, summed per ledger account and currency. */
function ledger(events: FxTradeEvent[]): Map<string, bigint> {
  const sums = new Map<string, bigint>()
  for (const e of events) {
    const tx = 'transaction' in e.data ? e.data.transaction : null
    if (!tx) continue
    for (const [currency, sum] of sumsByCurrency(tx.postings)) if (sum !== 0n) throw new Error(`${e.type} unbalanced in ${currency}`)
    for (const p of tx.postings) {
      const key = `${p.ledgerAccount}|${p.currency}`
      sums.set(key, (sums.get(key) ?? 0n) + BigInt(p.amountMinor))
    }
  }
  return sums
}

t.test('created awaiting its deposit, or pending its wallet; never twice', async (t) => {
  t.match(created, [{ type: 'FxTradeCreated', data: { status: 'AWAITING_DEPOSIT', depositDeadline: at(30), screeningDeadline: null } }])
  trade.given(created).when(create()).thenThrows(t, 'resource_already_exists')
  trade
    .given([])
    .when({ type: 'ExpireFxTrade', ...ids, now: at(31) })
    .thenThrows(t, 'resource_not_found')
})

t.test('screening: ACTIVE starts the deposit window; CLOSED or still in review at the deadline fails', async (t) => {
  const pending = fxTradeDecider.decide(create(true), fxTradeDecider.initialState())
  const screen = (wallet: 'ACTIVE' | 'IN_REVIEW' | 'CLOSED', minute: number): FxTradeCommand => ({
    type: 'ScreenFxTradeWallet',
    ...ids,
    wallet,
    now: at(minute),
  })
  trade
    .given(pending)
    .when(screen('ACTIVE', 1))
    .then(t, [{ type: 'FxTradeWalletApproved', data: { ...ref, depositDeadline: at(31), at: at(1) } }])
  trade.given(pending).when(screen('IN_REVIEW', 1)).then(t, [], 'still in review before the deadline: wait')
  trade
    .given(pending)
    .when(screen('IN_REVIEW', 15))
    .thenMatches(t, [{ type: 'FxTradeFailed', data: { code: 'wallet_screening_failed' } }])
  trade
    .given(pending)
    .when(screen('CLOSED', 1))
    .thenMatches(t, [{ type: 'FxTradeFailed', data: { transaction: null, refundedMinor: null } }])
  trade
    .given(pending)
    .when({ type: 'ReceiveFxTradeDeposit', ...ids, amountMinor: null, tracking, now: at(1) })
    .thenThrows(t, 'fx_trade_not_awaiting_deposit')
  trade.given(created).when(screen('CLOSED', 1)).then(t, [], 'a trade not pending its wallet is not screened')
})

t.test('the deposit: once; settled to PROCESSING at the quote, or refunded when short, excess or late', async (t) => {
  trade
    .given(created)
    .when({ type: 'ReceiveFxTradeDeposit', ...ids, amountMinor: null, tracking, now: at(1) })
    .then(t, [received()])
  trade
    .given([...created, received()])
    .when({ type: 'ReceiveFxTradeDeposit', ...ids, amountMinor: null, tracking, now: at(1) })
    .thenThrows(t, 'fx_trade_not_awaiting_deposit')
  t.match(decided([...created, received()], settle()), [
    { type: 'FxTradeDepositSettled', data: { outcome: 'CONVERT' } },
    { type: 'FxTradeConverted' },
  ])
  t.equal(processing.reduce(fxTradeDecider.evolve, fxTradeDecider.initialState()).status, 'PROCESSING')
  for (const [amount, minute, reason] of [
    ['99999999', 1, 'DEPOSIT_SHORT'],
    ['100000001', 1, 'DEPOSIT_EXCESS'],
    ['100000000', 31, 'DEPOSIT_LATE'],
  ] as const) {
    const events = [...created, received(amount, minute)]
    const refunded = decided(events, settle())
    t.match(refunded, [{ type: 'FxTradeDepositSettled' }, { type: 'FxTradeRefunded', data: { reason, refundedMinor: amount } }], reason)
    t.equal(ledger([...events, ...refunded]).get('fx_clearing|USDC'), 0n, `${reason}: nothing left in FX clearing`)
  }
  const failed = decided([...created, received()], settle(false))
  t.match(failed, [
    { type: 'FxTradeDepositSettled' },
    { type: 'FxTradeFailed', data: { code: 'fx_provider_unavailable', refundedMinor: '100000000' } },
  ])
  trade.given(created).when(settle()).then(t, [], 'nothing to settle before a deposit')
})

t.test('the payout: COMPLETED, FAILED (unwound, source returned) or REFUNDED (returned); the ledger balanced', async (t) => {
  trade
    .given(created)
    .when({ type: 'RequestFxTradePayout', ...ids, outcome: 'COMPLETED', now: at(3) })
    .thenThrows(t, 'fx_trade_not_processing')
  trade
    .given(processing)
    .when({ type: 'RequestFxTradePayout', ...ids, outcome: 'COMPLETED', now: at(3) })
    .then(t, [payoutRequested('COMPLETED')])
  trade
    .given([...processing, payoutRequested('COMPLETED')])
    .when({ type: 'RequestFxTradePayout', ...ids, outcome: 'FAILED', now: at(3) })
    .thenThrows(t, 'fx_trade_not_processing')
  const ends = {
    COMPLETED: { status: 'COMPLETED', spread: 250000n },
    FAILED: { status: 'FAILED', spread: 0n },
    RETURNED: { status: 'REFUNDED', spread: 0n },
  } as const
  for (const outcome of ['COMPLETED', 'FAILED', 'RETURNED'] as const) {
    const before = [...processing, payoutRequested(outcome)]
    const events = [...before, ...decided(before, completePayout)]
    const state = events.reduce(fxTradeDecider.evolve, fxTradeDecider.initialState())
    t.equal(state.status, ends[outcome].status, outcome)
    const sums = ledger(events)
    t.equal(sums.get('fx_clearing|USDC') ?? 0n, 0n, `${outcome}: no USDC left in FX clearing`)
    t.equal(sums.get('fx_clearing|EUR') ?? 0n, 0n, `${outcome}: no EUR left in FX clearing`)
    t.equal(sums.get('fx_spread|USDC') ?? 0n, ends[outcome].spread, `${outcome}: the spread kept, or given back`)
    trade.given(events).when(completePayout).then(t, [], `${outcome}: a late timer changes nothing`)
    trade
      .given(events)
      .when({ type: 'ExpireFxTrade', ...ids, now: at(60) })
      .then(t, [], `${outcome}: final`)
  }
})

t.test('the deadline: EXPIRED with no deposit; a received deposit settles instead', async (t) => {
  trade
    .given(created)
    .when({ type: 'ExpireFxTrade', ...ids, now: at(29) })
    .then(t, [], 'not before the deadline')
  trade
    .given(created)
    .when({ type: 'ExpireFxTrade', ...ids, now: at(30) })
    .then(t, [{ type: 'FxTradeExpired', data: { ...ref, depositDeadline: at(30), at: at(30) } }])
  trade
    .given([...created, received()])
    .when({ type: 'ExpireFxTrade', ...ids, now: at(31) })
    .then(t, [])
})

t.test('slots: one holder; an ended or orphaned holder is replaced; an active one refuses', async (t) => {
  const claim = (tradeId: string, minute: number, holder: { tradeId: string; trade: 'ACTIVE' | 'ENDED' | 'MISSING' } | null = null) => ({
    type: 'ClaimFxTradeSlot' as const,
    organizationId: 'org_a',
    customerId: 'cus_1',
    slotKey: 'USDC:ETHEREUM',
    tradeId,
    holder,
    now: at(minute),
  })
  const first = fxTradeSlotDecider.decide(claim('tfr_1', 0), fxTradeSlotDecider.initialState())
  t.match(first, [{ type: 'FxTradeSlotClaimed', data: { tradeId: 'tfr_1', replaced: null } }])
  slots.given(first).when(claim('tfr_1', 0)).then(t, [], 'the holder claims again: nothing')
  slots
    .given(first)
    .when(claim('tfr_2', 0, { tradeId: 'tfr_1', trade: 'ACTIVE' }))
    .thenThrows(t, 'fx_trade_already_active')
  slots
    .given(first)
    .when(claim('tfr_2', 0, { tradeId: 'tfr_9', trade: 'ENDED' }))
    .thenThrows(t, 'fx_trade_already_active', 'a fact about another holder')
  slots
    .given(first)
    .when(claim('tfr_2', 0, { tradeId: 'tfr_1', trade: 'ENDED' }))
    .thenMatches(t, [{ data: { tradeId: 'tfr_2', replaced: 'tfr_1' } }])
  slots
    .given(first)
    .when(claim('tfr_2', 0.5, { tradeId: 'tfr_1', trade: 'MISSING' }))
    .thenThrows(t, 'fx_trade_already_active', 'a recent claim')
  slots
    .given(first)
    .when(claim('tfr_2', 1, { tradeId: 'tfr_1', trade: 'MISSING' }))
    .thenMatches(t, [{ data: { replaced: 'tfr_1' } }], 'orphaned')
  const release = { ...claim('tfr_2', 1), type: 'ReleaseFxTradeSlot' as const }
  slots.given(first).when(release).then(t, [], 'only the holder releases')
  slots
    .given(first)
    .when({ ...release, tradeId: 'tfr_1' })
    .thenMatches(t, [{ type: 'FxTradeSlotReleased' }])
})
