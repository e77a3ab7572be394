// An invoice's statuses and the one table of moves between them (issue 28; Stripe's invoice lifecycle):
//
//   (none) ──create──► DRAFT ──finalize, or send (finalizes, then sends)──► OPEN
//   DRAFT ──delete──► (deleted: the stream ends; reads answer 404)
//   OPEN ──the payment that covers the amount due──► PAID
//   OPEN ──cancel──► CANCELLED
//   PAID, CANCELLED: final. A DRAFT is edited; an OPEN invoice never changes: cancel and re-issue.
//
// Overdue is no status: an OPEN invoice past its due date stays OPEN and is marked once (Stripe's
// invoice.overdue is an event too). Every move the table lacks is 409 invoice_invalid_transition
// naming both states.
import { z } from 'zod'
import { conflict } from '../errors.js'

export const INVOICE_STATUSES = ['DRAFT', 'OPEN', 'PAID', 'CANCELLED'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]
export const invoiceStatusSchema = z.enum(INVOICE_STATUSES).describe('Invoice status')

/** Where a move may lead: a status, or out of existence (a deleted draft). */
export type InvoiceMoveTarget = InvoiceStatus | 'DELETED'

export const INVOICE_TRANSITIONS: Readonly<Record<InvoiceStatus, readonly InvoiceMoveTarget[]>> = {
  DRAFT: ['OPEN', 'DELETED'],
  OPEN: ['PAID', 'CANCELLED'],
  PAID: [],
  CANCELLED: [],
}

export const INVOICE_FINAL_STATUSES: readonly InvoiceStatus[] = ['PAID', 'CANCELLED']

export const canMove = (from: InvoiceStatus, to: InvoiceMoveTarget): boolean => INVOICE_TRANSITIONS[from].includes(to)

export const invalidTransition = (invoiceId: string, from: InvoiceStatus, to: InvoiceMoveTarget) =>
  conflict('invoice_invalid_transition', `Invoice ${invoiceId} cannot move from ${from} to ${to}`)

/** 409 naming both states when the table has no such move. */
export function assertMove(invoiceId: string, from: InvoiceStatus, to: InvoiceMoveTarget): void {
  if (!canMove(from, to)) throw invalidTransition(invoiceId, from, to)
}

/** 409 for a change to anything but a DRAFT (the same code: a change is a move the table does not allow). */
export function assertEditable(invoiceId: string, status: InvoiceStatus): void {
  if (status !== 'DRAFT')
    throw conflict('invoice_invalid_transition', `Invoice ${invoiceId} is ${status}; only a DRAFT can be changed (cancel and re-issue)`)
}
