// Public events of invoices (spec: invoice.created, invoice.sent, invoice.paid, invoice.cancelled,
// invoice.overdue), each made from its stored event alone. invoice.paid carries exactly the spec's
// fields: id, customerId, amount (the amount due, minor units as a string like every amount the API
// sends), currency, status, paidAt, createdAt. No payload carries the payer (personal data: a webhook
// is kept 90 days by the receiver's side too); GET the invoice for it. Finalizing, updates, deletion
// and each payment have no public event (the spec names none; the invoice's stream keeps them).
import { publicEventMappersOf } from '../publicEvents.js'
import type { InvoiceEvent } from './events.js'

type Ref = { invoiceId: string; customerId: string }
const tags = (e: Ref) => [e.invoiceId, e.customerId]

export const invoicePublicEvents = publicEventMappersOf<InvoiceEvent>({
  InvoiceCreated: ({ data }) => ({
    type: 'invoice.created',
    data: {
      id: data.invoiceId,
      customerId: data.customerId,
      status: 'DRAFT',
      amount: data.totalMinor,
      currency: data.currency,
      dueDate: data.dueDate,
      createdAt: data.at,
    },
    tags: tags(data),
  }),
  InvoiceSent: ({ data }) => ({
    type: 'invoice.sent',
    data: { id: data.invoiceId, customerId: data.customerId, status: 'OPEN', sendNumber: data.sendNumber, sentAt: data.at },
    tags: tags(data),
  }),
  InvoicePaid: ({ data }) => ({
    type: 'invoice.paid',
    data: {
      id: data.invoiceId,
      customerId: data.customerId,
      amount: data.amountDueMinor,
      currency: data.currency,
      status: data.status,
      paidAt: data.at,
      createdAt: data.createdAt,
    },
    tags: tags(data),
  }),
  InvoiceCancelled: ({ data }) => ({
    type: 'invoice.cancelled',
    data: { id: data.invoiceId, customerId: data.customerId, status: 'CANCELLED', reason: data.reason, cancelledAt: data.at },
    tags: tags(data),
  }),
  InvoiceMarkedOverdue: ({ data }) => ({
    type: 'invoice.overdue',
    data: {
      id: data.invoiceId,
      customerId: data.customerId,
      status: 'OPEN',
      overdue: true,
      dueDate: data.dueDate,
      amountRemaining: data.amountRemainingMinor,
      overdueAt: data.at,
    },
    tags: tags(data),
  }),
})
