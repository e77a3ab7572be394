// An invoice's state as its events fold it: status, content, payment and the moments it went
// through. Money stays as minor-unit strings (BigInt where it is counted: paymentState.ts).
import { assertInvariant } from '../errors.js'
import type { InvoiceContent, InvoiceEvent, PaymentSource } from './events.js'
import type { InvoiceStatus } from './statuses.js'

/** One deposit the invoice took (at most INVOICE_DECIDER_LIMITS.maxPayments): what came in and how it divided. */
export type InvoicePaymentRecord = {
  depositReference: string
  source: PaymentSource
  amountMinor: string
  appliedMinor: string
  excessMinor: string
  at: string
}

export type ExistingInvoice = {
  status: InvoiceStatus
  invoiceId: string
  organizationId: string
  customerId: string
  currency: string
  balanceAccountId: string
  content: InvoiceContent
  /** Set when it is finalized (DRAFT to OPEN). */
  paymentReference: string | null
  /** Everything paid towards the invoice, the excess included. */
  amountPaidMinor: string
  /** The deposits applied, oldest first: a deposit reference seen again is not counted again. */
  payments: InvoicePaymentRecord[]
  sendCount: number
  lastSentAt: string | null
  finalizedAt: string | null
  paidAt: string | null
  cancelledAt: string | null
  /** When it was marked overdue, once; `overdue` is derived from it while the invoice is OPEN. */
  overdueAt: string | null
  createdAt: string
  updatedAt: string
}

export type DeletedInvoice = { status: 'deleted'; invoiceId: string; organizationId: string; deletedAt: string }

export type InvoiceState = { status: 'none' } | DeletedInvoice | ExistingInvoice

/** The derived flag: OPEN and marked overdue (a paid or cancelled invoice owes nothing, so is never overdue). */
export const isOverdue = (s: ExistingInvoice): boolean => s.status === 'OPEN' && s.overdueAt !== null

export function evolve(state: InvoiceState, event: InvoiceEvent): InvoiceState {
  if (event.type === 'InvoiceCreated') {
    const { invoiceId, organizationId, customerId, currency, balanceAccountId, at, ...content } = event.data
    return {
      status: 'DRAFT',
      invoiceId,
      organizationId,
      customerId,
      currency,
      balanceAccountId,
      content,
      paymentReference: null,
      amountPaidMinor: '0',
      payments: [],
      sendCount: 0,
      lastSentAt: null,
      finalizedAt: null,
      paidAt: null,
      cancelledAt: null,
      overdueAt: null,
      createdAt: at,
      updatedAt: at,
    }
  }
  assertInvariant(state.status !== 'none' && state.status !== 'deleted', `${event.type} on an invoice that does not exist`)
  const at = event.data.at
  const s = { ...state, updatedAt: at }
  switch (event.type) {
    case 'InvoiceUpdated': {
      const { invoiceId: _i, organizationId: _o, customerId: _c, changed: _ch, at: _at, ...content } = event.data
      return { ...s, content }
    }
    case 'InvoiceDeleted':
      return { status: 'deleted', invoiceId: s.invoiceId, organizationId: s.organizationId, deletedAt: at }
    case 'InvoiceFinalized':
      return { ...s, status: 'OPEN', paymentReference: event.data.paymentReference, finalizedAt: at }
    case 'InvoiceSent':
      return { ...s, sendCount: event.data.sendNumber, lastSentAt: at }
    case 'InvoicePaymentApplied': {
      const { depositReference, source, amountMinor, appliedMinor, excessMinor } = event.data
      const payment = { depositReference, source, amountMinor, appliedMinor, excessMinor, at }
      return { ...s, amountPaidMinor: event.data.amountPaidMinor, payments: [...s.payments, payment] }
    }
    case 'InvoicePaid':
      return { ...s, status: 'PAID', paidAt: at }
    case 'InvoiceCancelled':
      return { ...s, status: 'CANCELLED', cancelledAt: at }
    case 'InvoiceMarkedOverdue':
      return { ...s, overdueAt: at }
  }
}
