// A transfer draft's approval statuses and the one table of moves between them (the spec names the
// statuses; the moves are ours):
//
//   PENDING_APPROVAL ──screening starts (sandbox timer, advance, operator)──► SCREENING
//   SCREENING ──screening passed──► APPROVED, ──screening failed──► REJECTED
//   APPROVED, REJECTED: final (an APPROVED draft is used by one transfer; its status stays APPROVED)
import { z } from 'zod'
import { conflict } from '../errors.js'

export const TRANSFER_DRAFT_STATUSES = ['PENDING_APPROVAL', 'SCREENING', 'APPROVED', 'REJECTED'] as const
export type TransferDraftStatus = (typeof TRANSFER_DRAFT_STATUSES)[number]
export const transferDraftStatusSchema = z.enum(TRANSFER_DRAFT_STATUSES).describe('Transfer draft approval status')

export const TRANSFER_DRAFT_TRANSITIONS: Readonly<Record<TransferDraftStatus, readonly TransferDraftStatus[]>> = {
  PENDING_APPROVAL: ['SCREENING'],
  SCREENING: ['APPROVED', 'REJECTED'],
  APPROVED: [],
  REJECTED: [],
}

export const canMoveDraft = (from: TransferDraftStatus, to: TransferDraftStatus): boolean => TRANSFER_DRAFT_TRANSITIONS[from].includes(to)

/** 409 naming both states when the table has no such move. */
export function assertDraftMove(draftId: string, from: TransferDraftStatus, to: TransferDraftStatus): void {
  if (!canMoveDraft(from, to))
    throw conflict('transfer_draft_invalid_transition', `Transfer draft ${draftId} cannot move from ${from} to ${to}`)
}
