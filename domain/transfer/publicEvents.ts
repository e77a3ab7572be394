// Stored transfer events as the spec's public transfer.* events. transfer.created carries the whole
// transfer (the resource as it was created); the others carry the transfer id, its new status and
// what changed. transfer.created and transfer.updated carry source.originator (rule 3); funds
// arriving is transfer.processing; an operational problem after funds is transfer.updated with
// data.status IN_REVIEW, a failure before funds transfer.failed (rule 2). `agentId` is on every
// payload (null until agents act on transfers). Payloads keep no sensitive value: see `masked`.
import type { PublicEvent, PublicEventMapper } from '../publicEvents.js'
import { toWire } from '../shared/money/index.js'
import { last4 } from '../shared/sensitive/index.js'
import { transferDecider } from './decider.js'
import type { Originator, TransferEvent } from './events.js'
import { toTransferResource } from './resource.js'

/**
 * The remitter as a payload shows it: the webhook history keeps no sensitive value (issue 11), so
 * the name is left out (null) and the account number is its last four; GET /v1/transfers/{id}
 * shows the name.
 */
const masked = (o: Originator | null) => o && { ...o, name: null, accountNumber: o.accountNumber === null ? null : last4(o.accountNumber) }

function updated(
  transferId: string,
  status: string,
  at: string,
  originator: Originator | null,
  extra: Record<string, unknown>,
): PublicEvent {
  return {
    type: 'transfer.updated',
    data: { id: transferId, status, agentId: null, source: { originator: masked(originator) }, updatedAt: at, ...extra },
    tags: [transferId],
  }
}

function change(
  type: PublicEvent['type'],
  transferId: string,
  status: string,
  at: string,
  extra: Record<string, unknown> = {},
): PublicEvent {
  return { type, data: { id: transferId, status, agentId: null, updatedAt: at, ...extra }, tags: [transferId] }
}

export const transferPublicEvents: PublicEventMapper = (stored) => {
  const event = { type: stored.type, data: stored.data } as TransferEvent
  const d = event.data
  switch (event.type) {
    case 'TransferCreated': {
      const state = transferDecider.evolve(transferDecider.initialState(), event)
      if (state.status === 'none') return undefined
      const resource = toTransferResource(state)
      const originator = masked(event.data.originator ?? null)
      return {
        type: 'transfer.created',
        data: { ...resource, source: { ...resource.source, originator } },
        tags: [event.data.transferId, event.data.customerId],
      }
    }
    case 'TransferSubmitted':
      return updated(d.transferId, event.data.status, d.at, event.data.originator, {})
    case 'TransferFunded':
      return change('transfer.processing', d.transferId, 'PROCESSING', d.at, {
        fundingMethod: event.data.method,
        fundingAccountId: event.data.accountId,
        source: { originator: masked(event.data.originator) },
      })
    case 'TransferLegStarted':
    case 'TransferLegCompleted':
      return updated(d.transferId, 'PROCESSING', d.at, event.data.originator, {
        legIndex: event.data.index,
        legStatus: event.type === 'TransferLegStarted' ? 'IN_PROGRESS' : 'COMPLETED',
        tracking: event.data.tracking,
      })
    case 'TransferHeldForReview':
      return updated(d.transferId, 'IN_REVIEW', d.at, event.data.originator, {
        reason: { code: event.data.code, message: event.data.reason },
      })
    case 'TransferReviewCleared':
      return updated(d.transferId, 'PROCESSING', d.at, event.data.originator, {})
    case 'TransferCompleted':
      return change('transfer.completed', d.transferId, 'COMPLETED', d.at, { systemRemark: event.data.systemRemark })
    case 'TransferFailed':
      return change('transfer.failed', d.transferId, 'FAILED', d.at, { reason: { code: event.data.code, message: event.data.reason } })
    case 'TransferCancelled':
      return change('transfer.cancelled', d.transferId, 'CANCELLED', d.at, { reason: event.data.reason })
    case 'TransferReversed':
      return change('transfer.reversed', d.transferId, 'REVERSED', d.at, {
        reason: { code: event.data.code, message: event.data.reason },
        returnedToAccountId: event.data.returnedToAccountId,
      })
    case 'TransferRefundInitiated':
      return change('transfer.refund_initiated', d.transferId, 'REVERSED', d.at, {
        refund: {
          status: 'PENDING',
          reason: event.data.reason,
          refundTransferId: event.data.refundTransferId,
          address: event.data.address,
        },
      })
    case 'TransferRefundCompleted':
      return change('transfer.refund_completed', d.transferId, 'REVERSED', d.at, {
        refund: { status: 'COMPLETED', txHash: event.data.txHash },
      })
    case 'TransferFundsSuspended':
      // Rule 2: a problem after funds were received is transfer.updated with status IN_REVIEW.
      return updated(d.transferId, 'IN_REVIEW', d.at, event.data.originator, {
        reason: { code: event.data.code, message: event.data.reason },
        heldFunds: {
          stage: event.data.stage,
          amount: toWire({ currency: event.data.amount.currency, amountMinor: BigInt(event.data.amount.amountMinor) }),
        },
      })
    case 'TransferSuspenseResolved': {
      const extra = { reason: { code: 'funds_returned', message: event.data.reason }, returnedToAccountId: event.data.accountId }
      return event.data.firstReversal
        ? change('transfer.reversed', d.transferId, 'REVERSED', d.at, extra)
        : change('transfer.updated', d.transferId, 'REVERSED', d.at, extra)
    }
  }
}
