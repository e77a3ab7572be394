// A trade as the API shows it (POST /v1/fx/trades, GET /v1/fx/trades/{id}), its shape by status as
// the spec's Resources say: PENDING_WALLET_APPROVAL carries screeningDeadline and no deposit
// instructions; AWAITING_DEPOSIT carries depositInstructions and depositDeadline; PROCESSING neither;
// a terminal status none of the three, only the status and how it ended (`failure` on FAILED,
// `refund` on REFUNDED). The fields every status shares are the quote's terms and the accounts.
import { z } from 'zod'
import { assertInvariant } from '../errors.js'
import { checkPair } from '../fx/pair.js'
import { fxSideResource, sideResource } from '../fx/resource.js'
import { moneyWire, toWire } from '../shared/money/index.js'
import { depositInstructionsResource } from '../transfer/resource.js'
import { FX_TRADE_STATUSES, type OpenFxTrade } from './decider.js'

const money = (currency: string, amountMinor: string) => toWire({ currency, amountMinor: BigInt(amountMinor) })

export const fxTradeResource = z.object({
  id: z.string().describe('Trade id, prefix tfr_: the trade is also a transfer (flow FX) with this id'),
  organizationId: z.string(),
  customerId: z.string(),
  quoteId: z.string().describe('The firm quote it accepted'),
  status: z.enum(FX_TRADE_STATUSES).describe('COMPLETED, EXPIRED, FAILED and REFUNDED are final'),
  source: fxSideResource,
  destination: fxSideResource,
  sourceAmount: moneyWire.describe('What the customer deposits'),
  destinationAmount: moneyWire.describe('What is paid out'),
  fee: moneyWire.describe('The spread, withheld from the source amount'),
  rate: z.string().describe('Destination major units per source major unit, all-in'),
  exchangeRate: z.string().describe('Destination minor units per source minor unit, all-in'),
  referenceRate: z.string(),
  referenceProvider: z.string(),
  referenceRateAsOf: z.string(),
  sourceAccountId: z.string().nullable().describe('The wallet or bank account the deposit comes from, when named'),
  destinationAccountId: z.string().describe('The external wallet or bank account paid out to'),
  createdAt: z.string(),
  updatedAt: z.string(),
  screeningDeadline: z
    .string()
    .optional()
    .describe('PENDING_WALLET_APPROVAL only: the source wallet is cleared by then, or the trade fails'),
  depositInstructions: depositInstructionsResource.optional().describe('AWAITING_DEPOSIT only'),
  depositDeadline: z.string().optional().describe('AWAITING_DEPOSIT only: no deposit by then expires the trade'),
  failure: z.object({ code: z.string(), message: z.string(), refundedAmount: moneyWire.nullable() }).optional().describe('FAILED only'),
  refund: z
    .object({ reason: z.enum(['DEPOSIT_SHORT', 'DEPOSIT_EXCESS', 'DEPOSIT_LATE', 'PAYOUT_RETURNED']), amount: moneyWire })
    .optional()
    .describe('REFUNDED only: what went back to the sender, and why'),
})
export type FxTradeResource = z.infer<typeof fxTradeResource>

export function toFxTradeResource(s: OpenFxTrade): FxTradeResource {
  const t = s.trade
  const pair = checkPair(t.pair)
  const from = pair.source.currency
  const common: FxTradeResource = {
    id: t.tradeId,
    organizationId: t.organizationId,
    customerId: t.customerId,
    quoteId: t.quoteId,
    status: s.status,
    source: sideResource(pair.source),
    destination: sideResource(pair.destination),
    sourceAmount: money(from, t.sourceAmountMinor),
    destinationAmount: money(pair.destination.currency, t.destinationAmountMinor),
    fee: money(from, t.feeMinor),
    rate: t.rate,
    exchangeRate: t.exchangeRate,
    referenceRate: t.referenceRate,
    referenceProvider: t.referenceProvider,
    referenceRateAsOf: t.referenceRateAsOf,
    sourceAccountId: t.sourceAccountId,
    destinationAccountId: t.destinationAccountId,
    createdAt: t.createdAt,
    updatedAt: s.updatedAt,
  }
  switch (s.status) {
    case 'PENDING_WALLET_APPROVAL':
      return { ...common, screeningDeadline: t.screeningDeadline! }
    case 'AWAITING_DEPOSIT': {
      const i = t.depositInstructions
      return {
        ...common,
        depositInstructions: { ...i, amount: money(i.amount.currency, i.amount.amountMinor) },
        depositDeadline: s.depositDeadline!,
      }
    }
    case 'FAILED': {
      const o = s.outcome
      assertInvariant(o?.kind === 'failure', 'a failed trade records its failure')
      const refundedAmount = o.refundedMinor === null ? null : money(from, o.refundedMinor)
      return { ...common, failure: { code: o.code, message: o.message, refundedAmount } }
    }
    case 'REFUNDED': {
      const o = s.outcome
      assertInvariant(o?.kind === 'refund', 'a refunded trade records its refund')
      return { ...common, refund: { reason: o.reason, amount: money(from, o.refundedMinor) } }
    }
    default:
      return common
  }
}
