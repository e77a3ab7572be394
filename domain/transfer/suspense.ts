// Money of a transfer that could not land, held in suspense (the ledger's explicit account for it),
// and how it leaves: the decisions of SuspendFunds (a workflow's credit was refused), ResolveSuspense
// (an operator sends it to a balance account or out of the service) and a cleared review (the
// delivery is tried again). Increase and Bridge keep such money apart and reviewed, never lost:
//
//   DELIVERY   the destination refused the credit (PROCESSING → IN_REVIEW)
//   RETURN     a reversal's money could not go back to its account (REVERSED → IN_REVIEW)
//   REFUND     a refund's credit to the refund account was refused (REVERSED → IN_REVIEW)
//   RESOLUTION an operator's chosen account refused it too (REVERSED → IN_REVIEW, still in suspense)
import { conflict } from '../errors.js'
import { movement, system } from '../ledger/index.js'
import type { SuspenseStage, TransferEvent } from './events.js'
import { type DeliverySource, deliverySource, returnAmount, transferLedgerIds } from './moneyInTransit.js'
import type { OpenTransferState, SuspendedFunds } from './state.js'
import { assertMove } from './statuses.js'

type Base = { transferId: string; organizationId: string; at: string }

export type SuspendFunds = {
  stage: SuspenseStage
  code: string
  reason: string
  /** Where the money is now (null for RESOLUTION: still in suspense). */
  from: DeliverySource | null
}

/** The money held now: in suspense, not yet sent on. */
export const heldFunds = (s: OpenTransferState): SuspendedFunds | undefined =>
  s.status === 'IN_REVIEW' && s.suspended && !s.suspended.resolution ? s.suspended : undefined

const seenBy = (s: OpenTransferState) => ({ customerId: s.created.customerId, originator: s.funding?.originator ?? null })

function amountOf(s: OpenTransferState, stage: SuspenseStage): { currency: string; amountMinor: string } {
  switch (stage) {
    case 'DELIVERY':
      return s.created.destinationAmount
    case 'RETURN': {
      const { currency, amountMinor } = returnAmount(s)
      return { currency, amountMinor: amountMinor.toString() }
    }
    case 'REFUND':
      if (!s.refund) throw conflict('transfer_not_refunding', `Transfer ${s.created.transferId} has no refund in progress`)
      return s.refund.amount
    case 'RESOLUTION':
      if (!s.suspended?.resolution?.accountId)
        throw conflict('transfer_funds_not_held', `Transfer ${s.created.transferId} has no held money on its way to an account`)
      return s.suspended.amount
  }
}

const STAGE_FROM: Readonly<Record<SuspenseStage, readonly string[]>> = {
  DELIVERY: ['PROCESSING', 'COMPLETED'],
  RETURN: ['REVERSED'],
  REFUND: ['REVERSED'],
  RESOLUTION: ['REVERSED'],
}

export function decideSuspend(s: OpenTransferState, c: SuspendFunds, base: Base): TransferEvent[] {
  // The same refusal again (a workflow's replay): already held.
  if (heldFunds(s)) return []
  const id = s.created.transferId
  if (!STAGE_FROM[c.stage].includes(s.status))
    throw conflict('transfer_invalid_transition', `Transfer ${id} is ${s.status}: no ${c.stage.toLowerCase()} money to hold`)
  assertMove(id, s.status, 'IN_REVIEW')
  if ((c.from === null) !== (c.stage === 'RESOLUTION'))
    throw new RangeError(`${id}: only a resolution's money is already in suspense (${c.stage} from ${c.from})`)
  const amount = amountOf(s, c.stage)
  const n = (s.suspensions ?? 0) + 1
  const transaction =
    c.from === null
      ? null
      : movement({
          id: transferLedgerIds.suspend(id, n),
          kind: 'SUSPENSE',
          currency: amount.currency,
          amountMinor: BigInt(amount.amountMinor),
          from: system(c.from),
          to: system('suspense'),
          description: `Transfer ${id}: held in suspense (${c.code})`,
        })
  return [
    {
      type: 'TransferFundsSuspended',
      data: { ...base, ...seenBy(s), stage: c.stage, code: c.code, reason: c.reason, amount, transaction },
    },
  ]
}

/** An operator sends the held money to `accountId` (a balance account; the workflow credits it) or, with null, out of the service. */
export function decideResolve(s: OpenTransferState, c: { accountId: string | null; reason: string }, base: Base): TransferEvent[] {
  const held = heldFunds(s)
  const id = s.created.transferId
  if (!held) throw conflict('transfer_funds_not_held', `Transfer ${id} holds no money in suspense`)
  assertMove(id, s.status, 'REVERSED')
  const transaction =
    c.accountId === null
      ? movement({
          id: transferLedgerIds.release(id, s.suspensions ?? 0),
          kind: 'SUSPENSE',
          currency: held.amount.currency,
          amountMinor: BigInt(held.amount.amountMinor),
          from: system('suspense'),
          to: system('world'),
          description: `Transfer ${id}: held money sent out of the service`,
        })
      : null
  return [
    {
      type: 'TransferSuspenseResolved',
      data: { ...base, accountId: c.accountId, reason: c.reason, firstReversal: s.reversal === null, transaction },
    },
  ]
}

/**
 * A cleared review of a refused delivery tries it again: the held money goes back to where the
 * delivery takes it from. Money held after a reversal or a refund is not the rails' to retry.
 */
export function clearedReview(s: OpenTransferState, base: Base): TransferEvent[] | undefined {
  const held = heldFunds(s)
  if (!held) return [{ type: 'TransferReviewCleared', data: { ...base, ...seenBy(s) } }]
  if (held.stage !== 'DELIVERY') return undefined
  const id = s.created.transferId
  const transaction = movement({
    id: transferLedgerIds.unsuspend(id, s.suspensions ?? 0),
    kind: 'SUSPENSE',
    currency: held.amount.currency,
    amountMinor: BigInt(held.amount.amountMinor),
    from: system('suspense'),
    to: system(deliverySource(s)),
    description: `Transfer ${id}: held money back for another delivery`,
  })
  return [{ type: 'TransferReviewCleared', data: { ...base, ...seenBy(s), transaction } }]
}
