// The invoice as the API shows it (issue 28): status and payment state side by side, every amount as
// the spec's money object, the derived `overdue` flag, and the payment reference once it is OPEN. The
// coordinates a payer sends money to (a fixed route, the balance account's own) are the route's to add.
import { z } from 'zod'
import { storedMetadataSchema } from '../shared/metadata.js'
import { type MoneyWire, moneyWire, toWire } from '../shared/money/index.js'
import { PAYMENT_SOURCES } from './events.js'
import { paymentAmounts, paymentStateSchema } from './paymentState.js'
import { type ExistingInvoice, isOverdue } from './state.js'
import { invoiceStatusSchema } from './statuses.js'

const nullableTime = z.string().nullable()

export const invoiceResource = z
  .object({
    id: z.string().describe('Invoice id, prefix inv_'),
    customerId: z.string().describe('The customer the invoice is issued for: the payee'),
    status: invoiceStatusSchema,
    paymentState: paymentStateSchema,
    currency: z.string(),
    amountDue: moneyWire.describe('The total the payer owes'),
    amountPaid: moneyWire.describe('Everything paid towards the invoice, an excess included'),
    amountRemaining: moneyWire.describe('What is still owed, never below zero'),
    subtotal: moneyWire,
    total: moneyWire,
    lineItems: z.array(z.object({ description: z.string(), quantity: z.number().int(), unitAmount: moneyWire, amount: moneyWire })),
    payer: z.object({
      name: z.string(),
      email: z.string(),
      address: z.record(z.string(), z.unknown()).nullable().describe('The postal address, when one was given'),
    }),
    dueDate: z.string().describe('YYYY-MM-DD (UTC)'),
    overdue: z.boolean().describe('OPEN and past its due date (invoice.overdue was sent); never true once PAID or CANCELLED'),
    memo: z.string(),
    metadata: storedMetadataSchema,
    paymentInstructions: z
      .object({
        reference: z.string().describe('Put this in the payment reference: a deposit carrying it pays the invoice'),
        amount: moneyWire.describe('What is still owed'),
        balanceAccountId: z.string().describe("The customer's balance account the invoice's money lands in"),
        hostedUrl: z.string().describe('The hosted invoice page (HTML): what to pay and how, with the coordinates'),
      })
      .nullable()
      .describe('Null while DRAFT'),
    payments: z
      .array(
        z.object({
          depositReference: z.string().describe("The deposit's own reference: the same one again is not counted again"),
          source: z.enum(PAYMENT_SOURCES).describe('FIXED_ROUTE (a deposit at a fixed route) or SIMULATION (the sandbox payer)'),
          amount: moneyWire.describe('What the deposit brought'),
          applied: moneyWire.describe('The part that went towards the amount due'),
          excess: moneyWire.describe("Beyond what was due: it stays in the customer's balance"),
          createdAt: z.string(),
        }),
      )
      .describe('The deposits applied, oldest first (at most 100)'),
    sentAt: nullableTime.describe('The last send'),
    finalizedAt: nullableTime,
    paidAt: nullableTime,
    cancelledAt: nullableTime,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('An invoice a customer issues to a payer')
export type InvoiceResource = z.infer<typeof invoiceResource>

export function toInvoiceResource(s: ExistingInvoice): InvoiceResource {
  const wire = (amountMinor: string): MoneyWire => toWire({ currency: s.currency, amountMinor: BigInt(amountMinor) })
  const { content } = s
  const amounts = paymentAmounts(content.totalMinor, s.amountPaidMinor)
  return {
    id: s.invoiceId,
    customerId: s.customerId,
    status: s.status,
    paymentState: amounts.paymentState,
    currency: s.currency,
    amountDue: wire(amounts.amountDueMinor),
    amountPaid: wire(amounts.amountPaidMinor),
    amountRemaining: wire(amounts.amountRemainingMinor),
    subtotal: wire(content.subtotalMinor),
    total: wire(content.totalMinor),
    lineItems: content.lineItems.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitAmount: wire(l.unitAmountMinor),
      amount: wire(l.amountMinor),
    })),
    payer: { name: content.payer.name, email: content.payer.email, address: content.payer.address ?? null },
    dueDate: content.dueDate,
    overdue: isOverdue(s),
    memo: content.memo,
    metadata: content.metadata,
    paymentInstructions:
      s.paymentReference === null
        ? null
        : {
            reference: s.paymentReference,
            amount: wire(amounts.amountRemainingMinor),
            balanceAccountId: s.balanceAccountId,
            hostedUrl: `/v1/invoices/${s.invoiceId}/hosted`,
          },
    payments: s.payments.map((p) => ({
      depositReference: p.depositReference,
      source: p.source,
      amount: wire(p.amountMinor),
      applied: wire(p.appliedMinor),
      excess: wire(p.excessMinor),
      createdAt: p.at,
    })),
    sentAt: s.lastSentAt,
    finalizedAt: s.finalizedAt,
    paidAt: s.paidAt,
    cancelledAt: s.cancelledAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }
}
