// Events of an invoice, one stream per invoice (`invoice-inv_...`), version 1. Each names the
// invoice's organization and customer (the payee): the payer's name, email and street lines are
// sealed under the customer's data key (descriptor: dataSubject 'customer'), as a transfer's
// beneficiary is. Created and Updated carry the whole content (a reader needs no earlier event).
// A deposit for a cancelled, paid or unknown invoice is no invoice event: it goes to the balance.
import { z } from 'zod'
import { addressSchema } from '../shared/address.js'
import { EMAIL_LIMITS } from '../shared/email.js'
import { storedMetadataSchema } from '../shared/metadata.js'
import { sensitive } from '../shared/sensitive/index.js'
import { INVOICE_LIMITS } from './invoiceBody.js'

const id = z.string().min(1).max(64)
const at = z.iso.datetime()
const minor = z.string().regex(/^\d{1,40}$/)
/** An amount the domain never writes as zero: an invoice's total (invoice_total_zero), a payment. */
const positiveMinor = z.string().regex(/^[1-9]\d{0,39}$/)
const L = INVOICE_LIMITS

/** The payer as events store it: the same marks as the request's (sensitive() must sit on the leaf). */
export const storedPayer = z.object({
  name: sensitive(z.string().max(L.payerNameMaxLength)),
  email: sensitive(z.string().max(EMAIL_LIMITS.maxLength)),
  address: addressSchema.optional(),
})
export type StoredPayer = z.infer<typeof storedPayer>

export const storedLineItem = z.object({
  description: z.string().max(L.descriptionMaxLength),
  quantity: z.number().int().positive().max(L.maxQuantity),
  unitAmountMinor: minor,
  /** quantity x unitAmountMinor, computed by the service (totals.ts). */
  amountMinor: minor,
})

/** What a DRAFT may change; Updated carries all of it as it is after the change. */
export const invoiceContent = {
  payer: storedPayer,
  lineItems: z.array(storedLineItem).min(1).max(L.maxLineItems),
  subtotalMinor: positiveMinor,
  totalMinor: positiveMinor,
  dueDate: z.iso.date(),
  memo: z.string().max(L.memoMaxLength),
  metadata: storedMetadataSchema,
}
export const invoiceContentSchema = z.object(invoiceContent)
export type InvoiceContent = z.infer<typeof invoiceContentSchema>
export const INVOICE_CONTENT_FIELDS = ['payer', 'lineItems', 'dueDate', 'memo', 'metadata'] as const

const ref = { invoiceId: id, organizationId: id, customerId: id }

export const InvoiceCreated = z.object({
  ...ref,
  currency: z.string().min(3).max(5),
  /** The customer's balance account in the currency: where the invoice's money lands. */
  balanceAccountId: id,
  ...invoiceContent,
  at,
})

export const InvoiceUpdated = z.object({
  ...ref,
  ...invoiceContent,
  /** The fields this change touched (lineItems includes the totals they make). */
  changed: z.array(z.enum(INVOICE_CONTENT_FIELDS)).min(1).max(INVOICE_CONTENT_FIELDS.length),
  at,
})

export const InvoiceDeleted = z.object({ ...ref, at })

/** DRAFT to OPEN: from here the invoice never changes, and it can be paid by its reference. */
export const InvoiceFinalized = z.object({
  ...ref,
  paymentReference: z.string().max(40),
  /** The due date it is finalized with (its overdue timer's), as the content says. */
  dueDate: z.iso.date(),
  at,
})

export const INVOICE_DELIVERY_METHODS = ['RECORDED_ONLY'] as const

/**
 * Records a send: no email leaves the sandbox (issue 28). Version 2: the delivery is an object, so a
 * production channel can add its own fields beside the method (domain/invoice/upcasters.ts reads version 1).
 */
export const InvoiceSent = z.object({
  ...ref,
  delivery: z.object({ method: z.enum(INVOICE_DELIVERY_METHODS) }),
  /** 1 for the first send; a resend counts on. */
  sendNumber: z.number().int().positive().max(L.maxSends),
  at,
})

export const PAYMENT_SOURCES = ['FIXED_ROUTE', 'SIMULATION'] as const
export type PaymentSource = (typeof PAYMENT_SOURCES)[number]

/** A deposit matched to the invoice: what came in, what the invoice took, and the excess the balance takes. */
export const InvoicePaymentApplied = z.object({
  ...ref,
  currency: z.string().min(3).max(5),
  /** The deposit's own reference: the same one twice is applied once. */
  depositReference: id,
  source: z.enum(PAYMENT_SOURCES),
  amountMinor: positiveMinor,
  /** The part that went towards amountDue: amountMinor - excessMinor. */
  appliedMinor: minor,
  /** Beyond what was still due: credited to the customer's balance by the application layer. */
  excessMinor: minor,
  /** Everything paid towards the invoice after this payment, the excess included. */
  amountPaidMinor: minor,
  at,
})

/** Written with the payment that covers the amount due, once; it carries what `invoice.paid` shows. */
export const InvoicePaid = z.object({
  ...ref,
  status: z.literal('PAID'),
  currency: z.string().min(3).max(5),
  amountDueMinor: positiveMinor,
  amountPaidMinor: minor,
  createdAt: at,
  at,
})

export const InvoiceCancelled = z.object({
  ...ref,
  reason: z.string().max(500).nullable(),
  /** What had been paid before the cancellation: it stays in the customer's balance, where it landed. */
  amountPaidMinor: minor,
  at,
})

/** The due date passed with money still owed; once per invoice. The status stays OPEN. */
export const InvoiceMarkedOverdue = z.object({ ...ref, dueDate: z.iso.date(), amountRemainingMinor: minor, at })

export const invoiceEventSchemas = {
  InvoiceCreated,
  InvoiceUpdated,
  InvoiceDeleted,
  InvoiceFinalized,
  InvoiceSent,
  InvoicePaymentApplied,
  InvoicePaid,
  InvoiceCancelled,
  InvoiceMarkedOverdue,
} as const

type Of<K extends keyof typeof invoiceEventSchemas> = { type: K; data: z.infer<(typeof invoiceEventSchemas)[K]> }
export type InvoiceEvent =
  | Of<'InvoiceCreated'>
  | Of<'InvoiceUpdated'>
  | Of<'InvoiceDeleted'>
  | Of<'InvoiceFinalized'>
  | Of<'InvoiceSent'>
  | Of<'InvoicePaymentApplied'>
  | Of<'InvoicePaid'>
  | Of<'InvoiceCancelled'>
  | Of<'InvoiceMarkedOverdue'>
