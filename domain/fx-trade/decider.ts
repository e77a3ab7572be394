// The FX trade aggregate (FxTrade, `tfr_`): a firm quote accepted, then its money's way.
//   created ── PENDING_WALLET_APPROVAL (its source wallet is still being screened: screeningDeadline)
//            └ AWAITING_DEPOSIT (depositInstructions, depositDeadline: its own time, not the quote's)
//   PENDING_WALLET_APPROVAL → AWAITING_DEPOSIT (wallet passed) | FAILED (rejected, or not passed by the deadline)
//   AWAITING_DEPOSIT → deposit received (the status stays until it settles, on the deposit rail's clock)
//                    → PROCESSING (settled and converted) | REFUNDED (short, excess or late) | FAILED (provider)
//                    → EXPIRED (no deposit by depositDeadline)
//   PROCESSING → payout requested → COMPLETED | FAILED (the payout failed: source refunded) | REFUNDED (returned)
// COMPLETED, EXPIRED, FAILED and REFUNDED are final. Pure: the command side loads the facts (the
// wallet's status, the provider's availability) and draws the tracking ids.
import type { Decider } from '../decider.js'
import { DomainError, assertInvariant, notFound } from '../errors.js'
import type { Tracking } from '../transfer/events.js'
import type { z } from 'zod'
import type { FxTradeCreatedData, FxTradeEvent, FxTradeRefunded } from './events.js'
import {
  conversionTransaction,
  depositRefundTransaction,
  depositTransaction,
  payoutTransaction,
  unwindRefundTransaction,
} from './tradeLedger.js'

export const FX_TRADE_LIMITS = {
  /** How long a crypto deposit may take once the trade awaits it (Circle-like: minutes, not the quote's seconds). */
  cryptoDepositWindowMs: 30 * 60 * 1000,
  /** A bank transfer (SEPA, Faster Payments) may take a business day. */
  fiatDepositWindowMs: 24 * 60 * 60 * 1000,
  /** How long a source wallet's screening may take before the trade fails. */
  screeningWindowMs: 15 * 60 * 1000,
  /** A claimed slot whose trade never appeared (a crash between the two writes) is free again after this. */
  orphanClaimMs: 60 * 1000,
} as const

export const FX_TRADE_STATUSES = [
  'PENDING_WALLET_APPROVAL',
  'AWAITING_DEPOSIT',
  'PROCESSING',
  'COMPLETED',
  'EXPIRED',
  'FAILED',
  'REFUNDED',
] as const
export type FxTradeStatus = (typeof FX_TRADE_STATUSES)[number]
export const FX_TRADE_TERMINAL: readonly FxTradeStatus[] = ['COMPLETED', 'EXPIRED', 'FAILED', 'REFUNDED']

export type TradeOutcome =
  | { kind: 'failure'; code: string; message: string; refundedMinor: string | null }
  | { kind: 'refund'; reason: z.infer<typeof FxTradeRefunded>['reason']; refundedMinor: string }

export type OpenFxTrade = {
  status: FxTradeStatus
  trade: FxTradeCreatedData
  depositDeadline: string | null
  deposit: { amountMinor: string; tracking: Tracking; at: string } | null
  payout: { outcome: 'COMPLETED' | 'FAILED' | 'RETURNED'; at: string; paidOut: boolean } | null
  outcome: TradeOutcome | null
  endedAt: string | null
  updatedAt: string
}
export type FxTradeState = { status: 'none' } | OpenFxTrade

type Ids = { organizationId: string; tradeId: string; now: string }

/** What the source wallet's screening found when its timer ran. */
export type WalletScreening = 'ACTIVE' | 'IN_REVIEW' | 'CLOSED' | 'MISSING'

export type FxTradeCommand =
  | ({ type: 'CreateFxTrade'; trade: Omit<FxTradeCreatedData, 'tradeId' | 'organizationId' | 'createdAt'> } & Ids)
  | ({ type: 'ScreenFxTradeWallet'; wallet: WalletScreening } & Ids)
  | ({ type: 'ReceiveFxTradeDeposit'; amountMinor: string | null; tracking: Tracking } & Ids)
  | ({ type: 'SettleFxTradeDeposit'; providerAvailable: boolean } & Ids)
  | ({ type: 'RequestFxTradePayout'; outcome: 'COMPLETED' | 'FAILED' | 'RETURNED' } & Ids)
  | ({ type: 'CompleteFxTradePayout'; tracking: Tracking } & Ids)
  | ({ type: 'ExpireFxTrade' } & Ids)

export const isTerminal = (status: FxTradeStatus): boolean => FX_TRADE_TERMINAL.includes(status)

const refOf = (s: OpenFxTrade) => ({
  tradeId: s.trade.tradeId,
  organizationId: s.trade.organizationId,
  customerId: s.trade.customerId,
  quoteId: s.trade.quoteId,
})

function decideCreate(command: Extract<FxTradeCommand, { type: 'CreateFxTrade' }>): FxTradeEvent[] {
  const { trade } = command
  assertInvariant(
    (trade.status === 'AWAITING_DEPOSIT') === (trade.depositDeadline !== null) &&
      (trade.status === 'PENDING_WALLET_APPROVAL') === (trade.screeningDeadline !== null),
    'a trade awaiting its deposit has a deposit deadline, one pending its wallet a screening deadline',
  )
  return [
    {
      type: 'FxTradeCreated',
      data: { ...trade, tradeId: command.tradeId, organizationId: command.organizationId, createdAt: command.now },
    },
  ]
}

function decideScreening(command: Extract<FxTradeCommand, { type: 'ScreenFxTradeWallet' }>, s: OpenFxTrade): FxTradeEvent[] {
  if (s.status !== 'PENDING_WALLET_APPROVAL') return []
  const ref = { ...refOf(s), at: command.now }
  if (command.wallet === 'ACTIVE')
    return [{ type: 'FxTradeWalletApproved', data: { ...ref, depositDeadline: addMs(command.now, s.trade.depositWindowMs) } }]
  const deadlinePassed = command.now >= s.trade.screeningDeadline!
  if (command.wallet === 'IN_REVIEW' && !deadlinePassed) return []
  const message =
    command.wallet === 'IN_REVIEW'
      ? `The source wallet ${s.trade.sourceAccountId} was not cleared by ${s.trade.screeningDeadline}`
      : `The source wallet ${s.trade.sourceAccountId} did not pass screening`
  return [{ type: 'FxTradeFailed', data: { ...ref, code: 'wallet_screening_failed', message, refundedMinor: null, transaction: null } }]
}

function decideReceive(command: Extract<FxTradeCommand, { type: 'ReceiveFxTradeDeposit' }>, s: OpenFxTrade): FxTradeEvent[] {
  if (s.status !== 'AWAITING_DEPOSIT' || s.deposit !== null)
    throw new DomainError(
      'conflict',
      'fx_trade_not_awaiting_deposit',
      s.deposit !== null ? `Trade ${s.trade.tradeId} has received its deposit already` : `Trade ${s.trade.tradeId} is ${s.status}`,
    )
  const amountMinor = command.amountMinor ?? s.trade.sourceAmountMinor
  const rail = s.trade.pair.sourceNetwork ?? s.trade.pair.sourceRail!
  return [{ type: 'FxTradeDepositReceived', data: { ...refOf(s), amountMinor, rail, tracking: command.tracking, at: command.now } }]
}

function decideSettle(command: Extract<FxTradeCommand, { type: 'SettleFxTradeDeposit' }>, s: OpenFxTrade): FxTradeEvent[] {
  if (s.status !== 'AWAITING_DEPOSIT' || s.deposit === null) return []
  const ref = { ...refOf(s), at: command.now }
  const received = BigInt(s.deposit.amountMinor)
  const expected = BigInt(s.trade.sourceAmountMinor)
  const late = s.deposit.at > s.depositDeadline!
  const outcome = late
    ? 'REFUND_LATE'
    : received < expected
      ? 'REFUND_SHORT'
      : received > expected
        ? 'REFUND_EXCESS'
        : command.providerAvailable
          ? 'CONVERT'
          : 'FAIL_PROVIDER'
  const settled: FxTradeEvent = {
    type: 'FxTradeDepositSettled',
    data: { ...ref, amountMinor: s.deposit.amountMinor, outcome, transaction: depositTransaction(s.trade, received) },
  }
  const refund = { refundedMinor: s.deposit.amountMinor, transaction: depositRefundTransaction(s.trade, received) }
  switch (outcome) {
    case 'CONVERT':
      return [settled, { type: 'FxTradeConverted', data: { ...ref, transaction: conversionTransaction(s.trade) } }]
    case 'FAIL_PROVIDER':
      return [
        settled,
        {
          type: 'FxTradeFailed',
          data: {
            ...ref,
            code: 'fx_provider_unavailable',
            message: 'The liquidity provider could not convert; the deposit is returned',
            ...refund,
          },
        },
      ]
    default: {
      const reason =
        outcome === 'REFUND_LATE'
          ? ('DEPOSIT_LATE' as const)
          : outcome === 'REFUND_SHORT'
            ? ('DEPOSIT_SHORT' as const)
            : ('DEPOSIT_EXCESS' as const)
      return [settled, { type: 'FxTradeRefunded', data: { ...ref, reason, ...refund } }]
    }
  }
}

function decidePayoutRequest(command: Extract<FxTradeCommand, { type: 'RequestFxTradePayout' }>, s: OpenFxTrade): FxTradeEvent[] {
  if (s.status !== 'PROCESSING' || s.payout !== null)
    throw new DomainError(
      'conflict',
      'fx_trade_not_processing',
      s.payout !== null ? `Trade ${s.trade.tradeId} has its payout under way already` : `Trade ${s.trade.tradeId} is ${s.status}`,
    )
  const rail = s.trade.pair.destinationNetwork ?? s.trade.pair.destinationRail!
  return [{ type: 'FxTradePayoutRequested', data: { ...refOf(s), outcome: command.outcome, rail, at: command.now } }]
}

function decidePayout(command: Extract<FxTradeCommand, { type: 'CompleteFxTradePayout' }>, s: OpenFxTrade): FxTradeEvent[] {
  if (s.status !== 'PROCESSING' || s.payout === null) return []
  const ref = { ...refOf(s), at: command.now }
  const paid: FxTradeEvent = {
    type: 'FxTradePaidOut',
    data: { ...ref, tracking: command.tracking, transaction: payoutTransaction(s.trade) },
  }
  const refundedMinor = s.trade.sourceAmountMinor
  switch (s.payout.outcome) {
    case 'COMPLETED':
      return [paid, { type: 'FxTradeCompleted', data: ref }]
    case 'FAILED':
      return [
        {
          type: 'FxTradeFailed',
          data: {
            ...ref,
            code: 'payout_failed',
            message: 'The payout rail refused the payment; the conversion is unwound and the source amount returned',
            refundedMinor,
            transaction: unwindRefundTransaction(s.trade, false),
          },
        },
      ]
    case 'RETURNED':
      return [
        paid,
        {
          type: 'FxTradeRefunded',
          data: { ...ref, reason: 'PAYOUT_RETURNED', refundedMinor, transaction: unwindRefundTransaction(s.trade, true) },
        },
      ]
  }
}

function decideExpire(command: Extract<FxTradeCommand, { type: 'ExpireFxTrade' }>, s: OpenFxTrade): FxTradeEvent[] {
  // A deposit received in time settles on its own clock; the timer is then a no-op, as it is once the trade moved on.
  if (s.status !== 'AWAITING_DEPOSIT' || s.deposit !== null || command.now < s.depositDeadline!) return []
  return [{ type: 'FxTradeExpired', data: { ...refOf(s), depositDeadline: s.depositDeadline!, at: command.now } }]
}

const addMs = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString()

function ended(s: OpenFxTrade, status: FxTradeStatus, at: string, outcome: TradeOutcome | null): OpenFxTrade {
  return { ...s, status, outcome, endedAt: at, updatedAt: at }
}

export const fxTradeDecider: Decider<FxTradeState, FxTradeCommand, FxTradeEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateFxTrade') {
      if (state.status !== 'none') throw new DomainError('conflict', 'resource_already_exists', `Trade ${command.tradeId} already exists`)
      return decideCreate(command)
    }
    if (state.status === 'none') throw notFound('Trade', command.tradeId)
    switch (command.type) {
      case 'ScreenFxTradeWallet':
        return decideScreening(command, state)
      case 'ReceiveFxTradeDeposit':
        return decideReceive(command, state)
      case 'SettleFxTradeDeposit':
        return decideSettle(command, state)
      case 'RequestFxTradePayout':
        return decidePayoutRequest(command, state)
      case 'CompleteFxTradePayout':
        return decidePayout(command, state)
      case 'ExpireFxTrade':
        return decideExpire(command, state)
    }
  },

  evolve(state, event) {
    if (event.type === 'FxTradeCreated') {
      const t = event.data
      return {
        status: t.status,
        trade: t,
        depositDeadline: t.depositDeadline,
        deposit: null,
        payout: null,
        outcome: null,
        endedAt: null,
        updatedAt: t.createdAt,
      }
    }
    assertInvariant(state.status !== 'none' && !isTerminal(state.status), `${event.type} on a trade that is ${state.status}`)
    const s = { ...state, updatedAt: event.data.at }
    switch (event.type) {
      case 'FxTradeWalletApproved':
        return { ...s, status: 'AWAITING_DEPOSIT', depositDeadline: event.data.depositDeadline }
      case 'FxTradeDepositReceived':
        return { ...s, deposit: { amountMinor: event.data.amountMinor, tracking: event.data.tracking, at: event.data.at } }
      case 'FxTradeDepositSettled':
        return s
      case 'FxTradeConverted':
        return { ...s, status: 'PROCESSING' }
      case 'FxTradePayoutRequested':
        return { ...s, payout: { outcome: event.data.outcome, at: event.data.at, paidOut: false } }
      case 'FxTradePaidOut':
        assertInvariant(s.payout !== null, 'a payout is paid out once requested')
        return { ...s, payout: { ...s.payout, paidOut: true } }
      case 'FxTradeCompleted':
        return ended(s, 'COMPLETED', event.data.at, null)
      case 'FxTradeExpired':
        return ended(s, 'EXPIRED', event.data.at, null)
      case 'FxTradeFailed': {
        const { code, message, refundedMinor } = event.data
        return ended(s, 'FAILED', event.data.at, { kind: 'failure', code, message, refundedMinor })
      }
      case 'FxTradeRefunded':
        return ended(s, 'REFUNDED', event.data.at, { kind: 'refund', reason: event.data.reason, refundedMinor: event.data.refundedMinor })
    }
  },
}
