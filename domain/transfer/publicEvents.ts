// Stored transfer events as the spec's public transfer.* events. transfer.created carries the whole
// transfer (the resource as it was created); the others carry the transfer id, its new status and
// what changed. transfer.created and transfer.updated carry source.originator (rule 3); funds
// arriving is transfer.processing; an operational problem after funds is transfer.updated with
// data.status IN_REVIEW, a failure before funds transfer.failed (rule 2). The status each names is
// the one its event leaves the transfer in, from the table evolve reads (statusAfter.ts). `agentId`
// and `agentApprovalStatus` are on every payload: an agent's transfer names them in each of its events (null for any other).
// Payloads keep no sensitive value: see `masked`.
import { type PublicEvent, publicEventMappersOf } from '../publicEvents.js'
import { toWire } from '../shared/money/index.js'
import { last4 } from '../shared/sensitive/index.js'
import { transferDecider } from './decider.js'
import type { Originator, TransferEvent } from './events.js'
import { toTransferResource } from './resource.js'
import { publicStatusOf } from './statusAfter.js'

/**
 * The remitter as a payload shows it: the webhook history keeps no sensitive value (issue 11), so
 * the name is left out (null) and the account number is its last four; GET /v1/transfers/{id}
 * shows the name.
 */
const masked = (o: Originator | null) => o && { ...o, name: null, accountNumber: o.accountNumber === null ? null : last4(o.accountNumber) }

/** The events published as transfer.updated or another change: every one but TransferCreated. */
type Change = Exclude<TransferEvent, { type: 'TransferCreated' }>

/** transfer.updated: its status is the one the event leaves the transfer in (statusAfter.ts), as evolve has it. */
function updated(event: Change, originator: Originator | null, extra: Record<string, unknown>): PublicEvent {
  const { transferId, at } = event.data
  return {
    type: 'transfer.updated',
    data: {
      id: transferId,
      status: publicStatusOf(event),
      agentId: event.data.agentId ?? null,
      agentApprovalStatus: event.data.agentApprovalStatus ?? null,
      source: { originator: masked(originator) },
      updatedAt: at,
      ...extra,
    },
    tags: [transferId],
  }
}

function change(type: PublicEvent['type'], event: Change, extra: Record<string, unknown> = {}): PublicEvent {
  const { transferId, at } = event.data
  const { agentId = null, agentApprovalStatus = null } = event.data
  const data = { id: transferId, status: publicStatusOf(event), agentId, agentApprovalStatus, updatedAt: at, ...extra }
  return { type, data, tags: [transferId] }
}

const legUpdated = (event: Extract<TransferEvent, { type: 'TransferLegStarted' | 'TransferLegCompleted' }>) =>
  updated(event, event.data.originator, {
    legIndex: event.data.index,
    legStatus: event.type === 'TransferLegStarted' ? 'IN_PROGRESS' : 'COMPLETED',
    tracking: event.data.tracking,
  })

export const transferPublicEvents = publicEventMappersOf<TransferEvent>({
  TransferCreated: (event) => {
    const state = transferDecider.evolve(transferDecider.initialState(), event)
    if (state.status === 'none') return undefined
    const resource = toTransferResource(state)
    const originator = masked(event.data.originator ?? null)
    return {
      type: 'transfer.created',
      data: { ...resource, source: { ...resource.source, originator } },
      tags: [event.data.transferId, event.data.customerId],
    }
  },
  TransferSubmitted: (event) => updated(event, event.data.originator, {}),
  TransferAgentApprovalDecided: (event) => updated(event, event.data.originator, { agentApprovalNote: event.data.note }),
  TransferFunded: (event) =>
    change('transfer.processing', event, {
      fundingMethod: event.data.method,
      fundingAccountId: event.data.accountId,
      source: { originator: masked(event.data.originator) },
    }),
  TransferLegStarted: legUpdated,
  TransferLegCompleted: legUpdated,
  TransferHeldForReview: (event) =>
    updated(event, event.data.originator, { reason: { code: event.data.code, message: event.data.reason } }),
  TransferReviewCleared: (event) => updated(event, event.data.originator, {}),
  TransferCompleted: (event) => change('transfer.completed', event, { systemRemark: event.data.systemRemark }),
  TransferFailed: (event) => change('transfer.failed', event, { reason: { code: event.data.code, message: event.data.reason } }),
  TransferCancelled: (event) => change('transfer.cancelled', event, { reason: event.data.reason }),
  TransferReversed: (event) =>
    change('transfer.reversed', event, {
      reason: { code: event.data.code, message: event.data.reason },
      returnedToAccountId: event.data.returnedToAccountId,
    }),
  TransferRefundInitiated: (event) =>
    change('transfer.refund_initiated', event, {
      refund: {
        status: 'PENDING',
        reason: event.data.reason,
        refundTransferId: event.data.refundTransferId,
        address: event.data.address,
      },
    }),
  TransferRefundCompleted: (event) =>
    change('transfer.refund_completed', event, { refund: { status: 'COMPLETED', txHash: event.data.txHash } }),
  // Rule 2: a problem after funds were received is transfer.updated with status IN_REVIEW.
  TransferFundsSuspended: (event) =>
    updated(event, event.data.originator, {
      reason: { code: event.data.code, message: event.data.reason },
      heldFunds: {
        stage: event.data.stage,
        amount: toWire({ currency: event.data.amount.currency, amountMinor: BigInt(event.data.amount.amountMinor) }),
      },
    }),
  TransferSuspenseResolved: (event) => {
    const extra = { reason: { code: 'funds_returned', message: event.data.reason }, returnedToAccountId: event.data.accountId }
    return change(event.data.firstReversal ? 'transfer.reversed' : 'transfer.updated', event, extra)
  },
})
