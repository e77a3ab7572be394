// A transfer's state: nothing until created; then its plan (TransferCreated's data), its status,
// its legs as they run, how it was funded, and what happened after (review, failure, reversal,
// refund). JSON-safe (amounts stay minor-unit strings), so the read model stores it as it is.
import type { z } from 'zod'
import type { Originator, SuspenseStage, TransferCreatedData, Tracking, plannedLegSchema } from './events.js'
import type { TransferStatus } from './statuses.js'

export const LEG_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED'] as const
export type LegStatus = (typeof LEG_STATUSES)[number]

export type LegState = z.infer<typeof plannedLegSchema> & {
  status: LegStatus
  startedAt: string | null
  completedAt: string | null
  tracking: Tracking
}

export type Funding = {
  method: 'DEPOSIT' | 'BALANCE'
  accountId: string | null
  holdId: string | null
  fundingCustomerId: string | null
  note: string | null
  originator: Originator | null
}

export type Refund = {
  status: 'PENDING' | 'COMPLETED'
  reason: string
  amount: { currency: string; amountMinor: string }
  address: string | null
  externalAccountId: string | null
  refundTransferId: string | null
  txHash: string | null
  initiatedAt: string
  completedAt: string | null
}

/**
 * Money of the transfer held in suspense (it could not land: a closed destination, a closed account
 * to return it to), with the transfer IN_REVIEW; `resolution` once an operator sent it on.
 */
export type SuspendedFunds = {
  stage: SuspenseStage
  code: string
  reason: string
  amount: { currency: string; amountMinor: string }
  at: string
  resolution: { accountId: string | null; at: string } | null
}

/** An agent's transfer over a limit, waiting for (or decided by) its owner (issue 27). */
export type AgentApproval = {
  status: 'PENDING' | 'APPROVED' | 'DECLINED' | 'EXPIRED'
  requestedAt: string
  expiresAt: string
  decidedAt: string | null
  decidedBy: string | null
  note: string | null
}

export type OpenTransferState = {
  status: TransferStatus
  created: Omit<TransferCreatedData, 'status' | 'legs'>
  legs: LegState[]
  currentLegIndex: number
  funding: Funding | null
  /** Set once the sandbox's review-after-funding trigger has put it in review (it fires once). */
  reviewed: boolean
  review: { code: string; reason: string } | null
  failure: { code: string; reason: string } | null
  cancelReason: string | null
  reversal: { code: string; reason: string } | null
  returnedToAccountId: string | null
  returnedAt: string | null
  refund: Refund | null
  systemRemark: string | null
  /** Absent on states stored before issue 24: none. */
  suspended?: SuspendedFunds | null
  /** How many times its money went to suspense (each move has a ledger id of its own). Absent: 0. */
  suspensions?: number
  /** Absent: no approval was needed. */
  agentApproval?: AgentApproval | null
  createdAt: string
  updatedAt: string
}

export type TransferState = { status: 'none' } | OpenTransferState
