// A transfer's statuses and the one table of moves between them. The spec names the statuses and
// four rules (review after funds, failure before funds, platform-held drafts, reversal); the rest
// of the table is ours, the way Bridge and Increase move a payment:
//
//   DRAFT ──submit──► PENDING (or PENDING_AUTHORIZATION while an approval is owed)
//   DRAFT | PENDING_AUTHORIZATION | PENDING ──cancel──► CANCELLED        only before funds arrive
//   PENDING_AUTHORIZATION ──approved──► PENDING, ──declined──► CANCELLED
//   PENDING ──funds received (deposit, balance hold)──► PROCESSING
//   DRAFT | PENDING_AUTHORIZATION | PENDING ──failure before funds──► FAILED
//   PENDING (platform-held) | PROCESSING ──operational problem after funds──► IN_REVIEW
//   IN_REVIEW ──review cleared──► PROCESSING, ──funds returned──► REVERSED
//   PROCESSING ──payout leg completed──► COMPLETED
//   COMPLETED ──return or reversal──► REVERSED
//   COMPLETED | REVERSED ──money that came back could not land (held in suspense)──► IN_REVIEW
//   FAILED, CANCELLED: final; REVERSED: final unless the money it sends back is refused where it
//   goes (a closed account): then IN_REVIEW, with the money in suspense, until an operator resolves it
import { z } from 'zod'
import { conflict } from '../errors.js'

export const TRANSFER_STATUSES = [
  'DRAFT',
  'PENDING_AUTHORIZATION',
  'IN_REVIEW',
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'REVERSED',
] as const
export type TransferStatus = (typeof TRANSFER_STATUSES)[number]
export const transferStatusSchema = z.enum(TRANSFER_STATUSES).describe('Transfer status')

export const TRANSFER_TRANSITIONS: Readonly<Record<TransferStatus, readonly TransferStatus[]>> = {
  DRAFT: ['PENDING', 'PENDING_AUTHORIZATION', 'CANCELLED', 'FAILED'],
  PENDING_AUTHORIZATION: ['PENDING', 'CANCELLED', 'FAILED'],
  PENDING: ['PROCESSING', 'IN_REVIEW', 'CANCELLED', 'FAILED'],
  PROCESSING: ['COMPLETED', 'IN_REVIEW'],
  IN_REVIEW: ['PROCESSING', 'REVERSED'],
  COMPLETED: ['REVERSED', 'IN_REVIEW'],
  FAILED: [],
  CANCELLED: [],
  REVERSED: ['IN_REVIEW'],
}

/** Statuses the rails never leave (REVERSED moves only when its returned money is held: see the table). */
export const TERMINAL_STATUSES: readonly TransferStatus[] = ['FAILED', 'CANCELLED', 'REVERSED']

export const canMove = (from: TransferStatus, to: TransferStatus): boolean => TRANSFER_TRANSITIONS[from].includes(to)

/** 409 naming both states when the table has no such move. */
export function assertMove(transferId: string, from: TransferStatus, to: TransferStatus): void {
  if (!canMove(from, to)) throw conflict('transfer_invalid_transition', `Transfer ${transferId} cannot move from ${from} to ${to}`)
}
