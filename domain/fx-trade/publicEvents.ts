// Public events of FX trades, one per state a trade enters, each made from its stored event alone:
//   fx_trade.created (PENDING_WALLET_APPROVAL or AWAITING_DEPOSIT), fx_trade.awaiting_deposit (its
//   wallet cleared), fx_trade.processing (deposit settled and converted), fx_trade.completed (paid
//   out), fx_trade.expired (no deposit by the deadline), fx_trade.failed, fx_trade.refunded.
// Every payload: id, customerId, quoteId, status and the moment; created adds the amounts and the
// deadline of its status; failed its code and message; refunded its reason; each the refunded amount.
import { publicEventMappersOf } from '../publicEvents.js'
import { toWire } from '../shared/money/index.js'
import {
  FxTradeCompleted,
  FxTradeConverted,
  FxTradeCreated,
  type FxTradeEvent,
  FxTradeExpired,
  FxTradeFailed,
  FxTradeRefunded,
  FxTradeWalletApproved,
} from './events.js'

type Ref = { tradeId: string; customerId: string; quoteId: string }
const base = (e: Ref, status: string) => ({ id: e.tradeId, customerId: e.customerId, quoteId: e.quoteId, status })
const tags = (e: Ref) => [e.tradeId, e.customerId, e.quoteId]
const money = (currency: string, amountMinor: string) => toWire({ currency, amountMinor: BigInt(amountMinor) })

export const fxTradePublicEvents = publicEventMappersOf<FxTradeEvent>({
  FxTradeCreated: (event) => {
    const e = FxTradeCreated.parse(event.data)
    return {
      type: 'fx_trade.created',
      data: {
        ...base(e, e.status),
        sourceAmount: money(e.pair.sourceCurrency, e.sourceAmountMinor),
        destinationAmount: money(e.pair.destinationCurrency, e.destinationAmountMinor),
        ...(e.status === 'AWAITING_DEPOSIT' ? { depositDeadline: e.depositDeadline } : { screeningDeadline: e.screeningDeadline }),
        createdAt: e.createdAt,
      },
      tags: tags(e),
    }
  },
  FxTradeWalletApproved: (event) => {
    const e = FxTradeWalletApproved.parse(event.data)
    return {
      type: 'fx_trade.awaiting_deposit',
      data: { ...base(e, 'AWAITING_DEPOSIT'), depositDeadline: e.depositDeadline, at: e.at },
      tags: tags(e),
    }
  },
  FxTradeConverted: (event) => {
    const e = FxTradeConverted.parse(event.data)
    return { type: 'fx_trade.processing', data: { ...base(e, 'PROCESSING'), at: e.at }, tags: tags(e) }
  },
  FxTradeCompleted: (event) => {
    const e = FxTradeCompleted.parse(event.data)
    return { type: 'fx_trade.completed', data: { ...base(e, 'COMPLETED'), completedAt: e.at }, tags: tags(e) }
  },
  FxTradeExpired: (event) => {
    const e = FxTradeExpired.parse(event.data)
    return { type: 'fx_trade.expired', data: { ...base(e, 'EXPIRED'), depositDeadline: e.depositDeadline, expiredAt: e.at }, tags: tags(e) }
  },
  FxTradeFailed: (event) => {
    const e = FxTradeFailed.parse(event.data)
    return {
      type: 'fx_trade.failed',
      data: { ...base(e, 'FAILED'), code: e.code, message: e.message, refundedMinor: e.refundedMinor, failedAt: e.at },
      tags: tags(e),
    }
  },
  FxTradeRefunded: (event) => {
    const e = FxTradeRefunded.parse(event.data)
    return {
      type: 'fx_trade.refunded',
      data: { ...base(e, 'REFUNDED'), reason: e.reason, refundedMinor: e.refundedMinor, refundedAt: e.at },
      tags: tags(e),
    }
  },
})
