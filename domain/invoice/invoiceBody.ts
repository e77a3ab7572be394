// The request shapes that create and change an invoice (issue 28; the spec names only the events, so
// the bodies are ours, after Stripe invoices): who bills (the customer, the payee), whom (the payer:
// personal data, sealed), in which currency, for what (line items in minor units; the service computes
// the totals), and when it is due. One source for validation, types and the OpenAPI document.
import { z } from 'zod'
import { addressSchema } from '../shared/address.js'
import { EMAIL_LIMITS } from '../shared/email.js'
import { AMOUNT_BOUNDS, isKnownCurrency, minorAmountOrZero, withAmountBound } from '../shared/money/index.js'
import { metadataSchema } from '../shared/metadata.js'
import { sensitive } from '../shared/sensitive/index.js'
import { multiLineText } from '../shared/text/index.js'

export const INVOICE_LIMITS = {
  idMaxLength: 64,
  payerNameMaxLength: 200,
  descriptionMaxLength: 500,
  memoMaxLength: 1_000,
  /** Line items of one invoice: a bill, not a catalogue. */
  maxLineItems: 100,
  /** Units of one line; with the amount bound it keeps every product far inside BigInt's comfort. */
  maxQuantity: 1_000_000,
  /** Every line amount and the total are at most 10^this major units of the currency, as every amount (shared/money/bounds.ts). */
  maxAmountMajorPower: AMOUNT_BOUNDS.maxAmountMajorPower,
  /** How far ahead a due date may be: a bill, not a standing order. */
  maxDueInDays: 730,
  /** Sends of one invoice, the first included. */
  maxSends: 10,
} as const
const L = INVOICE_LIMITS

const currency = z
  .string()
  .regex(/^[A-Z]{3,5}$/, 'a currency code such as USD or USDC')
  .refine(isKnownCurrency, 'a currency the service knows (USD, EUR, USDC, ...)')
  .describe("The invoice's currency (fiat or stablecoin); the customer must hold a balance account in it")

/** Whom the invoice bills: personal data, sealed wherever it is stored (the address's street lines are, as everywhere). */
export const payerSchema = z
  .object({
    name: sensitive(z.string().trim().min(1).max(L.payerNameMaxLength)).describe("The payer's name"),
    email: sensitive(z.email('must be an email address').max(EMAIL_LIMITS.maxLength)).describe("The payer's email address"),
    address: addressSchema.optional(),
  })
  .strict()
  .describe('The payer: personal data, sealed at rest')
export type Payer = z.infer<typeof payerSchema>

export const lineItemInput = z
  .object({
    description: z.string().trim().min(1).max(L.descriptionMaxLength),
    quantity: z.number().int().positive().max(L.maxQuantity).describe(`Units, a positive integer (at most ${L.maxQuantity})`),
    unitAmount: minorAmountOrZero.describe(withAmountBound('The price of one unit, in minor units of the currency')),
  })
  .strict()
export type LineItemInput = z.infer<typeof lineItemInput>

const lineItems = z
  .array(lineItemInput)
  .min(1)
  .max(L.maxLineItems)
  .describe(
    `1 to ${L.maxLineItems} lines; each line's amount (quantity x unitAmount) and the total are computed by the service, ` +
      `each at most 10^${L.maxAmountMajorPower} major units (422 amount_too_large)`,
  )

const dueDate = z.iso.date().describe(`The day payment is due, YYYY-MM-DD (UTC): not in the past, at most ${L.maxDueInDays} days ahead`)
const memo = multiLineText(z.string().trim().max(L.memoMaxLength)).describe('A note shown to the payer')

export const createInvoiceBody = z
  .object({
    customerId: z.string().min(1).max(L.idMaxLength).describe('The customer (cus_) the invoice is issued for: the payee'),
    currency,
    payer: payerSchema,
    lineItems,
    dueDate,
    memo: memo.default(''),
    metadata: metadataSchema.default({}),
  })
  .strict()
export type CreateInvoiceBody = z.infer<typeof createInvoiceBody>

/**
 * What may change while the invoice is a DRAFT; the customer and the currency are fixed (the balance
 * account that receives the money was checked for them). An OPEN invoice never changes: cancel and re-issue.
 */
export const updateInvoiceBody = z
  .object({
    payer: payerSchema.optional(),
    lineItems: lineItems.optional(),
    dueDate: dueDate.optional(),
    memo: memo.optional(),
    metadata: metadataSchema.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'send at least one field to change')
export type UpdateInvoiceBody = z.infer<typeof updateInvoiceBody>
