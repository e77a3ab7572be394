// An FX trade is also a transfer (flow FX, the trade's own id): the transfer view is moved only by
// its trade, never by the rails engine, a workflow or a caller. From the trade as it stands, the
// mirror decides the transfer events that bring the view to it, so running it again, or late, or
// for an older event than the last, adds nothing. The trade's statuses map to the transfer's:
//   PENDING_WALLET_APPROVAL, AWAITING_DEPOSIT → PENDING (fundingNeeded while awaiting the deposit)
//   PROCESSING → PROCESSING (deposit and conversion legs completed; the payout leg started once requested)
//   COMPLETED → COMPLETED; EXPIRED → CANCELLED; FAILED → FAILED; REFUNDED → REVERSED
// The trade carries the money on the ledger (domain/fx-trade/tradeLedger.ts); its transfer view none.
import { assertInvariant, conflict } from '../errors.js'
import { type OpenFxTrade, isTerminal } from '../fx-trade/decider.js'
import { routeSide } from '../fx/corridors.js'
import { checkPair } from '../fx/pair.js'
import type { TransferCreatedData, TransferEvent } from './events.js'
import { MAX_TRANSFER_LEGS } from './planTransfer.js'
import { paymentRailOf, planLegs } from './route.js'
import type { OpenTransferState, TransferState } from './state.js'

export type MirrorFxTrade = {
  type: 'MirrorFxTrade'
  organizationId: string
  transferId: string
  now: string
  onBehalfOf?: string | undefined
  trade: OpenFxTrade
  /** Leg ids drawn beforehand, used when the view is created. */
  legIds: readonly string[]
}

/** The transfer view of a trade as created. */
export function tradeTransferCreated(trade: OpenFxTrade, legIds: readonly string[]): TransferCreatedData {
  const t = trade.trade
  const pair = checkPair(t.pair)
  const source = routeSide(pair.source)
  const destination = routeSide(pair.destination)
  const legs = planLegs(source, destination)
  if (legs.length > Math.min(legIds.length, MAX_TRANSFER_LEGS)) throw new Error(`a trade's ${legs.length} legs need as many ids`)
  return {
    transferId: t.tradeId,
    organizationId: t.organizationId,
    customerId: t.customerId,
    flow: 'FX',
    status: 'PENDING',
    createdBy: 'CALLER',
    heldByPlatform: false,
    source: {
      kind: source.kind,
      currency: source.currency,
      paymentRail: paymentRailOf(source),
      accountId: null,
      accountType: null,
      externalAccountId: t.sourceAccountId,
      fromAddress: null,
      refundAccountId: null,
      accountName: null,
    },
    destination: {
      kind: destination.kind,
      currency: destination.currency,
      paymentRail: paymentRailOf(destination),
      accountId: null,
      accountType: null,
      externalAccountId: t.destinationAccountId,
      toAddress: t.destination.toAddress,
      accountName: null,
      bankName: t.destination.bankName,
      bankCountryCode: t.destination.bankCountryCode,
      wireMessage: null,
      achReference: null,
      swiftReference: null,
      rtpReference: null,
      payoutReference: null,
      customerId: t.customerId,
    },
    sourceAmount: { currency: source.currency, amountMinor: t.sourceAmountMinor },
    destinationAmount: { currency: destination.currency, amountMinor: t.destinationAmountMinor },
    // The spread is in the rate (the trade shows it as its fee); no developer fee.
    fee: { fixedMinor: '0', percent: null, amountMinor: '0' },
    rate: {
      exchangeRate: t.exchangeRate,
      referenceRate: t.referenceRate,
      referenceRateAsOf: t.referenceRateAsOf,
      referenceProvider: t.referenceProvider,
    },
    legs: legs.map((leg, index) => ({ ...leg, id: legIds[index]! })),
    funding: 'DEPOSIT',
    depositInstructions: t.depositInstructions,
    counterpartyId: null,
    isThirdParty: false,
    clientReferenceId: null,
    quoteId: t.quoteId,
    remarks: null,
    metadata: {},
    agentId: null,
    parentTransferId: null,
    schedule: { estimatedSettlementAt: null, nextCutoffAt: null, cutoffTimezone: null },
    swiftRouting: null,
    sandboxTrigger: null,
    fxTrade: true,
    at: t.createdAt,
  }
}

/** The events that take the view `s` to where its trade stands. */
function catchUp(s: OpenTransferState, trade: OpenFxTrade, now: string): TransferEvent[] {
  const base = {
    transferId: s.created.transferId,
    organizationId: s.created.organizationId,
    at: trade.updatedAt > now ? now : trade.updatedAt,
  }
  const seen = { customerId: s.created.customerId, originator: null }
  const events: TransferEvent[] = []
  const funded = trade.status === 'PROCESSING' || (trade.outcome !== null && trade.deposit !== null && trade.status !== 'EXPIRED')
  const converted = trade.status === 'PROCESSING' || trade.status === 'COMPLETED' || trade.payout !== null
  const last = s.legs.length - 1
  let legs = s.legs.map((leg) => leg.status)
  if (s.status === 'PENDING' && funded && trade.deposit !== null) {
    events.push({
      type: 'TransferFunded',
      data: {
        ...base,
        customerId: s.created.customerId,
        method: 'DEPOSIT',
        accountId: null,
        holdId: null,
        fundingCustomerId: null,
        note: null,
        originator: null,
        tracking: trade.deposit.tracking,
      },
    })
    legs = legs.map((status, i) => (i === 0 ? 'COMPLETED' : status))
  }
  if (converted)
    for (let i = 1; i < last; i++) {
      if (legs[i] === 'COMPLETED') continue
      if (legs[i] === 'PENDING') events.push({ type: 'TransferLegStarted', data: { ...base, ...seen, index: i, tracking: {} } })
      events.push({ type: 'TransferLegCompleted', data: { ...base, ...seen, index: i, tracking: {} } })
      legs[i] = 'COMPLETED'
    }
  if (trade.payout !== null && legs[last] === 'PENDING') {
    events.push({ type: 'TransferLegStarted', data: { ...base, ...seen, index: last, tracking: {} } })
    legs[last] = 'IN_PROGRESS'
  }
  if (trade.payout?.paidOut === true && legs[last] === 'IN_PROGRESS')
    events.push({ type: 'TransferLegCompleted', data: { ...base, ...seen, index: last, tracking: {} } })
  if (!isTerminal(trade.status) || isTerminalView(s)) return events
  const outcome = trade.outcome
  switch (trade.status) {
    case 'COMPLETED':
      events.push({ type: 'TransferCompleted', data: { ...base, systemRemark: null, transaction: null } })
      break
    case 'EXPIRED':
      events.push({ type: 'TransferCancelled', data: { ...base, reason: `No deposit by the trade's deadline ${trade.depositDeadline}` } })
      break
    case 'FAILED':
      events.push({
        type: 'TransferFailed',
        data: {
          ...base,
          code: outcome?.kind === 'failure' ? outcome.code : 'fx_trade_failed',
          reason: outcome?.kind === 'failure' ? outcome.message : 'The trade failed',
        },
      })
      break
    case 'REFUNDED': {
      const reason = outcome?.kind === 'refund' ? outcome.reason : 'REFUNDED'
      events.push({
        type: 'TransferReversed',
        data: {
          ...base,
          code: reason.toLowerCase(),
          reason: `The trade's money went back to its sender (${reason})`,
          returnedToAccountId: null,
        },
      })
      break
    }
  }
  return events
}

const isTerminalView = (s: OpenTransferState) => ['COMPLETED', 'CANCELLED', 'FAILED', 'REVERSED'].includes(s.status)

export function decideMirror(
  command: MirrorFxTrade,
  state: TransferState,
  evolve: (state: TransferState, event: TransferEvent) => TransferState,
): TransferEvent[] {
  const { trade } = command
  assertInvariant(
    trade.trade.tradeId === command.transferId && trade.trade.organizationId === command.organizationId,
    'a trade is mirrored on the transfer of its own id',
  )
  if (state.status === 'none') {
    const created: TransferEvent = { type: 'TransferCreated', data: tradeTransferCreated(trade, command.legIds) }
    const view = evolve(state, created)
    assertInvariant(view.status !== 'none', 'a created transfer has a state')
    return [created, ...catchUp(view, trade, command.now)]
  }
  if (state.created.fxTrade !== true) throw conflict('transfer_not_fx_trade', `Transfer ${command.transferId} is not an FX trade`)
  return catchUp(state, trade, command.now)
}
