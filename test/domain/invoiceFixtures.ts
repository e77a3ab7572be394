// Shared givens of the invoice specs: one APPROVED payee with a USD balance account, one draft of
// two lines (2 x 1500 + 1 x 2000 = 5000 minor units, 50.00 USD), and the events its life goes through.
import type { InvoiceCommand } from '../../domain/invoice/decider.js'
import type { InvoiceEvent } from '../../domain/invoice/events.js'
import type { CreateInvoiceBody } from '../../domain/invoice/invoiceBody.js'
import { paymentReferenceOf } from '../../domain/invoice/paymentReference.js'

export const now = '2026-11-28T10:00:00.000Z'
export const later = '2026-11-28T11:00:00.000Z'
export const afterDue = '2026-12-16T00:00:00.000Z'
export const invoiceId = 'inv_01jdz8k3m0abcdefghjkmnpqrs'
export const scope = { organizationId: 'org_a', invoiceId, now }
const ids = { invoiceId, organizationId: 'org_a', customerId: 'cus_1' }

export const body: CreateInvoiceBody = {
  customerId: 'cus_1',
  currency: 'USD',
  payer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  lineItems: [
    { description: 'Consulting hour', quantity: 2, unitAmount: '1500' },
    { description: 'Travel', quantity: 1, unitAmount: '2000' },
  ],
  dueDate: '2026-12-15',
  memo: 'Thank you',
  metadata: {},
}

export const create: InvoiceCommand = {
  type: 'CreateInvoice',
  ...scope,
  body,
  payee: { customerStatus: 'APPROVED', balanceAccountId: 'acc_usd' },
}

export const created: InvoiceEvent = {
  type: 'InvoiceCreated',
  data: {
    ...ids,
    currency: 'USD',
    balanceAccountId: 'acc_usd',
    payer: body.payer,
    lineItems: [
      { description: 'Consulting hour', quantity: 2, unitAmountMinor: '1500', amountMinor: '3000' },
      { description: 'Travel', quantity: 1, unitAmountMinor: '2000', amountMinor: '2000' },
    ],
    subtotalMinor: '5000',
    totalMinor: '5000',
    dueDate: '2026-12-15',
    memo: 'Thank you',
    metadata: {},
    at: now,
  },
}

export const finalized: InvoiceEvent = {
  type: 'InvoiceFinalized',
  data: { ...ids, paymentReference: paymentReferenceOf(invoiceId), dueDate: '2026-12-15', at: now },
}
export const sent = (sendNumber = 1, at = now): InvoiceEvent => ({
  type: 'InvoiceSent',
  data: { ...ids, delivery: { method: 'RECORDED_ONLY' }, sendNumber, at },
})
export const cancelled: InvoiceEvent = { type: 'InvoiceCancelled', data: { ...ids, reason: null, amountPaidMinor: '0', at: now } }
export const deleted: InvoiceEvent = { type: 'InvoiceDeleted', data: { ...ids, at: now } }

/** A payment command of `amountMinor` carrying deposit reference `depositReference`. */
export const pay = (amountMinor: string, depositReference: string, at = later): InvoiceCommand => ({
  type: 'ApplyInvoicePayment',
  ...scope,
  now: at,
  currency: 'USD',
  amountMinor,
  depositReference,
  source: 'SIMULATION',
})

/** The event a payment of `amountMinor` decides, with what it brings the invoice to. */
export const applied = (amountMinor: string, depositReference: string, split: { applied: string; excess: string; paid: string }) =>
  ({
    type: 'InvoicePaymentApplied',
    data: {
      ...ids,
      currency: 'USD',
      depositReference,
      source: 'SIMULATION',
      amountMinor,
      appliedMinor: split.applied,
      excessMinor: split.excess,
      amountPaidMinor: split.paid,
      at: later,
    },
  }) satisfies InvoiceEvent

export const paid = (amountPaidMinor: string): InvoiceEvent => ({
  type: 'InvoicePaid',
  data: { ...ids, status: 'PAID', currency: 'USD', amountDueMinor: '5000', amountPaidMinor, createdAt: now, at: later },
})

export const overdue: InvoiceEvent = {
  type: 'InvoiceMarkedOverdue',
  data: { ...ids, dueDate: '2026-12-15', amountRemainingMinor: '5000', at: afterDue },
}
