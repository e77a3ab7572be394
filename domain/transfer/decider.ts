// The transfer aggregate: create (as a draft or submitted), submit, cancel, fund (a deposit arrived
// or a balance hold was placed), advance one step of the rails engine (start or complete a leg, the
// sandbox triggers), fail, reverse, refund. Every status move goes through the table in
// statuses.ts; an illegal one is 409 transfer_invalid_transition naming both states.
import type { Decider } from '../decider.js'
import { type LedgerTransaction, movement, system } from '../ledger/index.js'
import { DomainError, type ErrorDetail, assertInvariant, conflict, invalid, notFound } from '../errors.js'
import type { Originator, TransferEvent, Tracking } from './events.js'
import { type NewTransfer, type TransferPlanInput, assertBalanceCovers, planTransfer } from './planTransfer.js'
import { type TrackingPool, legTracking } from './legTracking.js'
import { awaitingBalanceCredit } from './moneyInTransit.js'
import type { Funding, LegState, OpenTransferState, TransferState } from './state.js'
import { type TransferStatus, assertMove } from './statuses.js'
import { statusAfter } from './statusAfter.js'
import { type SuspendFunds, clearedReview, decideResolve, decideSuspend, heldFunds } from './suspense.js'
import { SWIFT_UNTRACKED_SYSTEM_REMARK } from '../rails/index.js'
import { type MirrorFxTrade, decideMirror } from './fxTradeMirror.js'

export type { OpenTransferState, TransferState } from './state.js'

type Scoped = { organizationId: string; transferId: string; now: string; onBehalfOf?: string | undefined }

/**
 * Who asks the rails engine for its next step: a timer scheduled after the transfer's change at
 * `after` (stale, so a no-op, once the transfer changed again), or an operator (now, or 409).
 */
export type AdvanceMode = { by: 'timer'; after: string } | { by: 'operator' }

export type TransferCommand =
  /** The transfer view of an FX trade brought to where the trade stands (fxTradeMirror.ts). */
  | MirrorFxTrade
  /** A transfer the platform planned itself (a refund, a fee sweep, a sandbox platform draft). */
  | (Scoped & { type: 'CreateTransfer'; transfer: NewTransfer })
  /** A caller's create request with the facts and randomness it needs: the decider plans it (planTransfer.ts). */
  | (Scoped & { type: 'RequestTransfer'; request: Omit<TransferPlanInput, 'transferId' | 'now'> })
  /** `agentApprovalExpiresAt`: an agent's draft over a limit waits for its owner (PENDING_AUTHORIZATION) until then. */
  | (Scoped & { type: 'SubmitTransfer'; agentApprovalExpiresAt?: string })
  /** The owner's decision on an agent's transfer in PENDING_AUTHORIZATION, or its expiry (decidedBy null). */
  | (Scoped & { type: 'DecideAgentApproval'; decision: 'APPROVED' | 'DECLINED' | 'EXPIRED'; decidedBy: string | null; note: string | null })
  | (Scoped & { type: 'CancelTransfer'; reason: string | null })
  | (Scoped & {
      type: 'FundTransfer'
      method: Funding['method']
      accountId: string | null
      holdId: string | null
      fundingCustomerId: string | null
      note: string | null
      originator: Originator | null
      tracking: Tracking
    })
  /** `onlyIfUnfunded`: a no-op once funds were received (a funding race lost to a deposit or another hold). */
  | (Scoped & { type: 'FailTransfer'; code: string; reason: string; onlyIfUnfunded?: boolean })
  | (Scoped & { type: 'AdvanceTransfer'; mode: AdvanceMode; pool: TrackingPool })
  | (Scoped & { type: 'AssumeSwiftSettlement'; legIndex: number })
  /**
   * `reclaimed`: a transfer into a balance account is reversed only once its credit was taken back
   * (the command handler did that first; the rails never reverse such a transfer).
   */
  | (Scoped & { type: 'ReverseTransfer'; code: string; reason: string; reclaimed?: boolean })
  /** The balance destination was credited: its leg, and the transfer, complete. */
  | (Scoped & { type: 'CompleteDelivery' })
  /** A credit the transfer's money needed was refused: the money is held in suspense, IN_REVIEW (suspense.ts). */
  | (Scoped & { type: 'SuspendFunds' } & SuspendFunds)
  /** An operator sends held money to a balance account, or (null) out of the service. */
  | (Scoped & { type: 'ResolveSuspense'; accountId: string | null; reason: string })
  | (Scoped & {
      type: 'InitiateRefund'
      reason: string
      refundTransferId: string | null
      address: string | null
      externalAccountId: string | null
      returnedToAccountId: string | null
    })
  | (Scoped & { type: 'CompleteRefund'; txHash: string | null })
  /**
   * A deposit arrived for a transfer the platform opens for it (a fixed route's sweep): created and
   * funded in one decision, held for review when `hold` says so. Its id is derived from the deposit,
   * so the same deposit again is a no-op (and `refusal` applies only to a deposit not yet received).
   */
  | (Scoped & {
      type: 'ReceiveDeposit'
      transfer: NewTransfer
      originator: Originator | null
      tracking: Tracking
      hold: { code: string; reason: string } | null
      refusal: { code: string; message: string; details: ErrorDetail[] } | null
    })

function opened(state: TransferState, command: Scoped): OpenTransferState {
  if (state.status === 'none' || state.created.organizationId !== command.organizationId) throw notFound('Transfer', command.transferId)
  if (command.onBehalfOf !== undefined && state.created.customerId !== command.onBehalfOf) throw notFound('Transfer', command.transferId)
  return state
}

const fundedStatuses: readonly TransferStatus[] = ['PROCESSING', 'COMPLETED', 'IN_REVIEW', 'REVERSED']

function decideFund(s: OpenTransferState, c: Extract<TransferCommand, { type: 'FundTransfer' }>): TransferEvent[] {
  if (s.funding) {
    // The same hold or deposit again (a retry, a workflow's replay): nothing more happens.
    if (s.funding.method === c.method && s.funding.holdId === c.holdId && s.funding.accountId === c.accountId) return []
    throw conflict('transfer_already_funded', `Transfer ${c.transferId} is already funded`)
  }
  if (s.status === 'DRAFT') throw conflict('transfer_not_submitted', `Transfer ${c.transferId} is a DRAFT; submit it before funding it`)
  if (s.status !== 'PENDING')
    throw new DomainError('conflict', 'transfer_not_awaiting_funds', `Transfer ${c.transferId} is ${s.status}, not awaiting funds`)
  assertMove(c.transferId, s.status, 'PROCESSING')
  const { type: _type, now, onBehalfOf: _scope, ...rest } = c
  return [{ type: 'TransferFunded', data: { ...rest, customerId: s.created.customerId, at: now } }]
}

/** The remitter known so far, for the events published as transfer.updated. */
const seenBy = (s: OpenTransferState) => ({ customerId: s.created.customerId, originator: s.funding?.originator ?? null })
const plain = ({ transferId, organizationId, at }: Base): Base => ({ transferId, organizationId, at })

function decideAdvance(s: OpenTransferState, c: Extract<TransferCommand, { type: 'AdvanceTransfer' }>): TransferEvent[] {
  if (c.mode.by === 'timer' && c.mode.after !== s.updatedAt) return []
  const base = { transferId: c.transferId, organizationId: c.organizationId, at: c.now, ...seenBy(s) }
  const trigger = s.created.sandboxTrigger
  const nothing = () => {
    if (c.mode.by === 'timer') return []
    throw conflict('transfer_not_advanceable', `Transfer ${c.transferId} is ${s.status}: the rails have no step to take`)
  }
  switch (s.status) {
    case 'PENDING':
      if (trigger === 'FAIL_BEFORE_FUNDING')
        return [
          {
            type: 'TransferFailed',
            data: {
              ...plain(base),
              code: 'rail_rejected',
              reason: 'The rail rejected the transfer before funds were received (sandbox trigger)',
            },
          },
        ]
      return nothing()
    case 'IN_REVIEW': {
      if (c.mode.by === 'timer') return []
      const cleared = clearedReview(s, plain(base))
      if (cleared) return cleared
      throw conflict(
        'transfer_funds_held',
        `Transfer ${c.transferId} holds returned money in suspense: an operator resolves it (suspense resolve)`,
      )
    }
    case 'COMPLETED':
      // A transfer into a balance account is not returned by a rail: it is reversed by taking its credit back.
      if (s.created.destination.kind === 'BALANCE') return nothing()
      if (trigger === 'RETURN_AFTER_COMPLETION')
        return [
          {
            type: 'TransferReversed',
            data: {
              ...plain(base),
              code: 'R01',
              reason: 'Returned by the receiving bank: R01 insufficient funds',
              returnedToAccountId: returnTarget(s),
            },
          },
        ]
      if (trigger === 'REVERSAL_AFTER_COMPLETION')
        return [
          {
            type: 'TransferReversed',
            data: {
              ...plain(base),
              code: 'reversal',
              reason: 'Reversed by the rail after completion',
              returnedToAccountId: returnTarget(s),
            },
          },
        ]
      return nothing()
    case 'PROCESSING':
      break
    default:
      return nothing()
  }
  if (trigger === 'REVIEW_AFTER_FUNDING' && !s.reviewed)
    return [
      {
        type: 'TransferHeldForReview',
        data: { ...base, code: 'compliance_review', reason: 'Held for an operational review after funds were received (sandbox trigger)' },
      },
    ]
  const leg = s.legs[s.currentLegIndex]
  assertInvariant(leg, `transfer ${c.transferId} PROCESSING past its last leg`)
  // A balance credit completes when the credit is applied (the transfer workflow's delivery), not on a clock.
  if (awaitingBalanceCredit(s)) return nothing()
  const untrackedSwift = trigger === 'SWIFT_UNTRACKED'
  const tracking = legTracking(leg, c.pool, { untrackedSwift, chargesFee: BigInt(s.created.fee.amountMinor) > 0n })
  if (leg.status === 'PENDING') return [{ type: 'TransferLegStarted', data: { ...base, index: s.currentLegIndex, tracking } }]
  // An untracked SWIFT payout is never confirmed by the rail: only the 24-hour assumption completes it.
  if (untrackedSwift && leg.outputRail === 'SWIFT' && leg.type === 'PAYOUT_FIAT') return nothing()
  return completeLeg(s, base, s.currentLegIndex, {}, null)
}

type Base = { transferId: string; organizationId: string; at: string }

function completeLeg(s: OpenTransferState, base: Base, index: number, tracking: Tracking, remark: string | null): TransferEvent[] {
  const { transferId, organizationId, at } = base
  const events: TransferEvent[] = [
    { type: 'TransferLegCompleted', data: { transferId, organizationId, at, ...seenBy(s), index, tracking } },
  ]
  if (index === s.legs.length - 1)
    events.push({ type: 'TransferCompleted', data: { transferId, organizationId, at, systemRemark: remark, transaction: depositFee(s) } })
  return events
}

/**
 * The developer fee of a transfer funded by a deposit: kept out of the money that came in from the
 * world and went back out (world → fees). A balance-funded transfer's fee is kept when its hold
 * settles (the account's HoldSettled carries it).
 */
function depositFee(s: OpenTransferState): LedgerTransaction | null {
  const fee = BigInt(s.created.fee.amountMinor)
  if (fee === 0n || s.funding?.method !== 'DEPOSIT') return null
  return movement({
    id: `fee:${s.created.transferId}`,
    kind: 'FEE',
    currency: s.created.sourceAmount.currency,
    amountMinor: fee,
    from: system('world'),
    to: system('fees'),
    description: `Developer fee of transfer ${s.created.transferId}`,
  })
}

/**
 * What a refund sends back: the whole source amount, less the developer fee once the transfer
 * completed (the fee was kept then: world → fees), as a reversal credits a balance.
 */
function refundAmount(s: OpenTransferState) {
  const completed = s.legs.at(-1)?.status === 'COMPLETED'
  const { currency, amountMinor } = s.created.sourceAmount
  return { currency, amountMinor: completed ? (BigInt(amountMinor) - BigInt(s.created.fee.amountMinor)).toString() : amountMinor }
}

/** Where reversed funds go back to: the balance that paid, else the source's refund account. */
const returnTarget = (s: OpenTransferState): string | null => s.funding?.accountId ?? s.created.source.refundAccountId

function decideDeposit(state: TransferState, c: Extract<TransferCommand, { type: 'ReceiveDeposit' }>): TransferEvent[] {
  if (state.status !== 'none') {
    if (state.created.organizationId !== c.organizationId) throw notFound('Transfer', c.transferId)
    return []
  }
  if (c.refusal) throw invalid(c.refusal.code, c.refusal.message, c.refusal.details)
  assertInvariant(
    c.transfer.status === 'PENDING' && c.transfer.funding === 'DEPOSIT',
    'a received deposit opens a PENDING deposit transfer',
  )
  const ref = { transferId: c.transferId, organizationId: c.organizationId, at: c.now }
  const seen = { customerId: c.transfer.customerId, originator: c.originator }
  const events: TransferEvent[] = [
    { type: 'TransferCreated', data: { ...c.transfer, originator: c.originator, ...ref } },
    {
      type: 'TransferFunded',
      data: {
        ...ref,
        customerId: c.transfer.customerId,
        method: 'DEPOSIT',
        accountId: null,
        holdId: null,
        fundingCustomerId: null,
        note: null,
        originator: c.originator,
        tracking: c.tracking,
      },
    },
  ]
  if (c.hold) events.push({ type: 'TransferHeldForReview', data: { ...ref, ...seen, code: c.hold.code, reason: c.hold.reason } })
  return events
}

function decideCreate(command: Scoped, state: TransferState, transfer: NewTransfer): TransferEvent[] {
  if (state.status !== 'none') throw conflict('transfer_exists', `Transfer ${command.transferId} already exists`)
  if (command.onBehalfOf !== undefined && transfer.customerId !== command.onBehalfOf) throw notFound('Customer', transfer.customerId)
  return [
    {
      type: 'TransferCreated',
      data: { ...transfer, transferId: command.transferId, organizationId: command.organizationId, at: command.now },
    },
  ]
}

/** A caller's request: planned, and refused (nothing written) when its source balance cannot cover it. */
function decideRequest(command: Extract<TransferCommand, { type: 'RequestTransfer' }>, state: TransferState): TransferEvent[] {
  if (state.status !== 'none') throw conflict('transfer_exists', `Transfer ${command.transferId} already exists`)
  const planned = planTransfer({ ...command.request, transferId: command.transferId, now: new Date(command.now) })
  assertBalanceCovers(planned, command.request.facts.sourceAccount)
  return decideCreate(command, state, planned)
}

function decide(command: TransferCommand, state: TransferState): TransferEvent[] {
  if (command.type === 'MirrorFxTrade') return decideMirror(command, state, evolve)
  if (command.type === 'CreateTransfer') return decideCreate(command, state, command.transfer)
  if (command.type === 'RequestTransfer') return decideRequest(command, state)
  if (command.type === 'ReceiveDeposit') return decideDeposit(state, command)
  const s = opened(state, command)
  if (s.created.fxTrade === true)
    throw conflict(
      'transfer_moved_by_fx_trade',
      `Transfer ${command.transferId} is an FX trade: it moves with its trade (POST /v1/fx/trades/${command.transferId}/...)`,
    )
  const events = decideOpen(command, s)
  // An agent's transfer names its agent and its approval status (as each event leaves it) in every event, so every
  // transfer.* payload carries agentId and agentApprovalStatus (spec: Events rule 1).
  const agentId = s.created.agentId
  if (agentId === null) return events
  let after: TransferState = s
  return events.map((e) => {
    after = evolve(after, e)
    const agentApprovalStatus = after.status === 'none' ? null : (after.agentApproval?.status ?? null)
    return { ...e, data: { ...e.data, agentId, agentApprovalStatus } } as TransferEvent
  })
}

/**
 * The owner's decision: once per transfer. The same decision again answers it unchanged, another is
 * 409 agent_approval_already_decided; the expiry timer is a no-op once decided.
 */
function decideAgentApproval(
  s: OpenTransferState,
  command: Extract<TransferCommand, { type: 'DecideAgentApproval' }>,
  base: { transferId: string; organizationId: string; at: string },
): TransferEvent[] {
  const approval = s.agentApproval ?? null
  if (approval === null)
    throw conflict('transfer_not_awaiting_agent_approval', `Transfer ${command.transferId} does not wait for an agent approval`)
  if (approval.status !== 'PENDING') {
    if (approval.status === command.decision || command.decision === 'EXPIRED') return []
    throw conflict(
      'agent_approval_already_decided',
      `The agent approval of transfer ${command.transferId} is ${approval.status}; it cannot become ${command.decision}`,
    )
  }
  // Cancelled (or failed) while it waited: nothing to decide any more.
  if (s.status !== 'PENDING_AUTHORIZATION') {
    if (command.decision === 'EXPIRED') return []
    throw conflict(
      'transfer_not_awaiting_agent_approval',
      `Transfer ${command.transferId} is ${s.status}: it no longer waits for an approval`,
    )
  }
  const approved = command.decision === 'APPROVED'
  const decided: TransferEvent = {
    type: 'TransferAgentApprovalDecided',
    data: {
      ...base,
      ...seenBy(s),
      status: approved ? 'PENDING' : 'PENDING_AUTHORIZATION',
      decision: command.decision,
      decidedBy: command.decidedBy,
      note: command.note,
    },
  }
  if (approved) return [decided]
  const reason = command.decision === 'DECLINED' ? 'agent_approval_declined' : 'agent_approval_expired'
  return [decided, { type: 'TransferCancelled', data: { ...base, reason } }]
}

type OpenTransferCommand = Exclude<TransferCommand, { type: 'MirrorFxTrade' | 'CreateTransfer' | 'RequestTransfer' | 'ReceiveDeposit' }>

function decideOpen(command: OpenTransferCommand, s: OpenTransferState): TransferEvent[] {
  const base = { transferId: command.transferId, organizationId: command.organizationId, at: command.now }
  switch (command.type) {
    case 'SubmitTransfer':
      // A retried submit of a submitted transfer answers it as it is.
      if (s.status === 'PENDING' || s.status === 'PENDING_AUTHORIZATION') return []
      if (s.status !== 'DRAFT') {
        assertMove(command.transferId, s.status, 'PENDING')
        return []
      }
      if (s.created.heldByPlatform)
        throw conflict(
          'transfer_held_by_platform',
          `Transfer ${command.transferId} was created by the platform and is held in review; it cannot be submitted`,
        )
      if (command.agentApprovalExpiresAt !== undefined) {
        assertInvariant(s.created.agentId !== null, 'only an agent transfer waits for an agent approval')
        const expiresAt = command.agentApprovalExpiresAt
        return [
          {
            type: 'TransferSubmitted',
            data: { ...base, ...seenBy(s), status: 'PENDING_AUTHORIZATION', agentApprovalExpiresAt: expiresAt },
          },
        ]
      }
      return [{ type: 'TransferSubmitted', data: { ...base, ...seenBy(s), status: 'PENDING' } }]
    case 'DecideAgentApproval':
      return decideAgentApproval(s, command, base)
    case 'CancelTransfer':
      if (s.status === 'CANCELLED') return []
      assertMove(command.transferId, s.status, 'CANCELLED')
      if (s.funding) throw conflict('transfer_already_funded', `Transfer ${command.transferId} is funded; it can no longer be cancelled`)
      return [{ type: 'TransferCancelled', data: { ...base, reason: command.reason } }]
    case 'FundTransfer':
      return decideFund(s, command)
    case 'FailTransfer':
      if (s.status === 'FAILED') return []
      if (command.onlyIfUnfunded && (s.funding || s.status === 'CANCELLED')) return []
      if (fundedStatuses.includes(s.status) || s.funding) {
        // Funds were received: an operational problem puts it in review, never FAILED (spec).
        if (s.status === 'IN_REVIEW') return []
        // After completion nothing is in flight: only money coming back that cannot land is held (suspense.ts).
        if (s.status === 'COMPLETED' || s.status === 'REVERSED')
          throw conflict('transfer_invalid_transition', `Transfer ${command.transferId} cannot move from ${s.status} to IN_REVIEW`)
        assertMove(command.transferId, s.status, 'IN_REVIEW')
        return [{ type: 'TransferHeldForReview', data: { ...base, ...seenBy(s), code: command.code, reason: command.reason } }]
      }
      assertMove(command.transferId, s.status, 'FAILED')
      return [{ type: 'TransferFailed', data: { ...base, code: command.code, reason: command.reason } }]
    case 'AdvanceTransfer':
      return decideAdvance(s, command)
    case 'AssumeSwiftSettlement': {
      const leg = s.legs[command.legIndex]
      if (s.status !== 'PROCESSING' || s.currentLegIndex !== command.legIndex || leg?.status !== 'IN_PROGRESS') return []
      return completeLeg(s, base, command.legIndex, {}, SWIFT_UNTRACKED_SYSTEM_REMARK)
    }
    case 'ReverseTransfer':
      if (s.status === 'REVERSED') return []
      assertMove(command.transferId, s.status, 'REVERSED')
      if (s.status === 'COMPLETED' && s.created.destination.kind === 'BALANCE' && command.reclaimed !== true)
        throw conflict(
          'transfer_not_reversible',
          `Transfer ${command.transferId} was credited to a balance account: take the credit back before reversing it`,
        )
      if (heldFunds(s))
        throw conflict('transfer_funds_held', `Transfer ${command.transferId} holds money in suspense: an operator resolves it`)
      return [
        { type: 'TransferReversed', data: { ...base, code: command.code, reason: command.reason, returnedToAccountId: returnTarget(s) } },
      ]
    case 'InitiateRefund':
      if (s.refund) return []
      if (!s.funding) throw conflict('transfer_not_funded', `Transfer ${command.transferId} received no funds; cancel it instead`)
      if (heldFunds(s))
        throw conflict(
          'transfer_funds_held',
          `Transfer ${command.transferId} holds money in suspense: the platform operator resolves it, not a refund`,
        )
      if (s.status !== 'IN_REVIEW' && s.status !== 'REVERSED')
        throw conflict(
          'transfer_not_refundable',
          `Transfer ${command.transferId} is ${s.status}; only a transfer in review or reversed is refunded`,
        )
      return [
        ...(s.status === 'IN_REVIEW'
          ? [
              {
                type: 'TransferReversed' as const,
                data: { ...base, code: 'refunded', reason: command.reason, returnedToAccountId: command.returnedToAccountId },
              },
            ]
          : []),
        {
          type: 'TransferRefundInitiated',
          data: {
            ...base,
            refundTransferId: command.refundTransferId,
            reason: command.reason,
            amount: refundAmount(s),
            address: command.address,
            externalAccountId: command.externalAccountId,
            returnedToAccountId: command.returnedToAccountId,
          },
        },
      ]
    case 'CompleteRefund':
      if (!s.refund) throw conflict('transfer_not_refunding', `Transfer ${command.transferId} has no refund in progress`)
      if (s.refund.status === 'COMPLETED') return []
      return [{ type: 'TransferRefundCompleted', data: { ...base, txHash: command.txHash } }]
    case 'CompleteDelivery':
      if (s.status === 'COMPLETED') return []
      if (!awaitingBalanceCredit(s))
        throw conflict('transfer_not_delivering', `Transfer ${command.transferId} is ${s.status}, not crediting its balance destination`)
      return completeLeg(s, base, s.currentLegIndex, {}, null)
    case 'SuspendFunds':
      return decideSuspend(s, command, base)
    case 'ResolveSuspense':
      return decideResolve(s, command, base)
  }
}

const withLeg = (legs: LegState[], index: number, change: Partial<LegState>): LegState[] =>
  legs.map((leg, i) => (i === index ? { ...leg, ...change, tracking: { ...leg.tracking, ...change.tracking } } : leg))

function evolve(state: TransferState, event: TransferEvent): TransferState {
  if (event.type === 'TransferCreated') {
    const { status: _named, legs, ...created } = event.data
    return {
      status: statusAfter(event, 'none'),
      created,
      legs: legs.map((leg) => ({ ...leg, status: 'PENDING', startedAt: null, completedAt: null, tracking: {} })),
      currentLegIndex: 0,
      funding: null,
      reviewed: false,
      review: null,
      failure: null,
      cancelReason: null,
      reversal: null,
      returnedToAccountId: null,
      returnedAt: null,
      refund: null,
      systemRemark: null,
      createdAt: event.data.at,
      updatedAt: event.data.at,
    }
  }
  assertInvariant(state.status !== 'none', `${event.type} before TransferCreated`)
  const at = event.data.at
  // Every event's status comes from the one table the public events read too (statusAfter.ts).
  const s = { ...state, updatedAt: at, status: statusAfter(event, state.status) }
  switch (event.type) {
    case 'TransferSubmitted': {
      const expiresAt = event.data.agentApprovalExpiresAt
      if (expiresAt === undefined) return s
      return { ...s, agentApproval: { status: 'PENDING', requestedAt: at, expiresAt, decidedAt: null, decidedBy: null, note: null } }
    }
    case 'TransferAgentApprovalDecided': {
      assertInvariant(s.agentApproval, 'TransferAgentApprovalDecided without a requested approval')
      const { decision, decidedBy, note } = event.data
      return { ...s, agentApproval: { ...s.agentApproval, status: decision, decidedAt: at, decidedBy, note } }
    }
    case 'TransferFunded': {
      const { method, accountId, holdId, fundingCustomerId, note, originator, tracking } = event.data
      // The first leg (the deposit, the balance debit) is done once the funds are in.
      const legs = withLeg(s.legs, 0, { status: 'COMPLETED', startedAt: s.legs[0]!.startedAt ?? at, completedAt: at, tracking })
      return {
        ...s,
        funding: { method, accountId, holdId, fundingCustomerId, note, originator },
        legs,
        currentLegIndex: 1,
      }
    }
    case 'TransferLegStarted':
      return { ...s, legs: withLeg(s.legs, event.data.index, { status: 'IN_PROGRESS', startedAt: at, tracking: event.data.tracking }) }
    case 'TransferLegCompleted': {
      const legs = withLeg(s.legs, event.data.index, { status: 'COMPLETED', completedAt: at, tracking: event.data.tracking })
      return { ...s, legs, currentLegIndex: Math.min(event.data.index + 1, s.legs.length - 1) }
    }
    case 'TransferHeldForReview':
      return { ...s, reviewed: true, review: { code: event.data.code, reason: event.data.reason } }
    case 'TransferReviewCleared':
      return { ...s, review: null, ...(event.data.transaction ? { suspended: null } : {}) }
    case 'TransferFundsSuspended': {
      const { stage, code, reason, amount } = event.data
      return {
        ...s,
        review: { code, reason },
        suspended: { stage, code, reason, amount, at, resolution: null },
        suspensions: (s.suspensions ?? 0) + (event.data.transaction ? 1 : 0),
      }
    }
    case 'TransferSuspenseResolved': {
      const { accountId, reason } = event.data
      assertInvariant(s.suspended, 'TransferSuspenseResolved without held money')
      const refund = s.refund && s.refund.status === 'PENDING' ? { ...s.refund, status: 'COMPLETED' as const, completedAt: at } : s.refund
      return {
        ...s,
        review: null,
        reversal: s.reversal ?? { code: 'funds_returned', reason },
        suspended: { ...s.suspended, resolution: { accountId, at } },
        returnedToAccountId: accountId ?? s.returnedToAccountId,
        returnedAt: accountId ? at : s.returnedAt,
        refund,
      }
    }
    case 'TransferCompleted':
      return { ...s, systemRemark: event.data.systemRemark }
    case 'TransferFailed': {
      const legs = s.legs.map((leg) => (leg.status === 'COMPLETED' ? leg : { ...leg, status: 'FAILED' as const }))
      return { ...s, legs, failure: { code: event.data.code, reason: event.data.reason } }
    }
    case 'TransferCancelled': {
      const legs = s.legs.map((leg) => (leg.status === 'COMPLETED' ? leg : { ...leg, status: 'CANCELLED' as const }))
      return { ...s, legs, cancelReason: event.data.reason }
    }
    case 'TransferReversed':
      return {
        ...s,
        reversal: { code: event.data.code, reason: event.data.reason },
        returnedToAccountId: event.data.returnedToAccountId,
        returnedAt: event.data.returnedToAccountId ? at : null,
      }
    case 'TransferRefundInitiated':
      return {
        ...s,
        refund: {
          status: 'PENDING',
          reason: event.data.reason,
          amount: event.data.amount,
          address: event.data.address,
          externalAccountId: event.data.externalAccountId,
          refundTransferId: event.data.refundTransferId,
          txHash: null,
          initiatedAt: at,
          completedAt: null,
        },
        returnedToAccountId: event.data.returnedToAccountId ?? s.returnedToAccountId,
      }
    case 'TransferRefundCompleted':
      assertInvariant(s.refund, 'TransferRefundCompleted without a refund')
      return {
        ...s,
        refund: { ...s.refund, status: 'COMPLETED', txHash: event.data.txHash, completedAt: at },
        returnedAt: s.returnedAt ?? at,
      }
  }
}

export const transferDecider: Decider<TransferState, TransferCommand, TransferEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
}
