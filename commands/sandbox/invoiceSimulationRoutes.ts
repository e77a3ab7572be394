// Sandbox: POST /v1/sandbox/invoices/{id}/simulate-payment, the payer paying an invoice (403 in
// production). The deposit is applied to the invoice when it can take it, and its whole amount is
// credited to the payee's balance account either way (commands/invoices/invoicePayments.ts). The same
// deposit reference again is the same deposit: nothing counts or credits twice.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { INVOICE_DECIDER_LIMITS } from '../../domain/invoice/decider.js'
import { invoiceResource, toInvoiceResource } from '../../domain/invoice/resource.js'
import { newId } from '../../domain/shared/ids.js'
import { assertAmountsWithinBound, moneyWire, positiveMinorAmount, toWire } from '../../domain/shared/money/index.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { INVOICE_TAGS, invoiceParams } from '../../http/invoiceParams.js'
import { principalOf } from '../../http/principal.js'
import { loadInvoice } from '../invoices/invoiceFacts.js'
import { payInvoice } from '../invoices/invoicePayments.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import type { Environment } from '../../domain/shared/environment.js'
import { originFrom } from '../runtime/requestOrigin.js'
import { sandboxOnly } from './sandboxOnly.js'

const simulatePaymentBody = z
  .object({
    amount: positiveMinorAmount.describe('What the payer sends, in minor units of the invoice’s currency ("4000" is 40.00 USD)'),
    depositReference: z
      .string()
      .trim()
      .min(1)
      .max(INVOICE_DECIDER_LIMITS.depositReferenceMaxLength)
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
      .optional()
      .describe(
        'The deposit’s own reference (a rail’s transaction id): the same one again is the same deposit, counted and credited ' +
          'once; with another amount 409 reference_reused. Omitted: a new one',
      ),
  })
  .strict()

const simulatePaymentResult = z.object({
  invoiceId: z.string(),
  depositReference: z.string(),
  amount: moneyWire,
  matched: z.boolean().describe('True when the invoice took the deposit (now or before); false when it could not (not OPEN, already paid)'),
  credited: z.boolean().describe('False when this deposit had been credited already: nothing was credited again'),
  balanceAccountId: z.string().describe('Where the whole deposit was credited (an excess or an unmatched deposit included)'),
  invoice: invoiceResource,
})

export const sandboxInvoiceRoutes: FastifyPluginAsyncZod<{ commands: CommandRuntime; environment: Environment }> = async (app, deps) => {
  sandboxOnly(app, deps.environment)
  app.post(
    '/sandbox/invoices/:id/simulate-payment',
    {
      schema: {
        operationId: 'simulateInvoicePayment',
        tags: ['Sandbox', ...INVOICE_TAGS],
        summary: 'Sandbox: the payer pays an invoice',
        description:
          'Stands in for the payer’s deposit carrying the invoice’s reference. An OPEN invoice takes it: partial payments ' +
          'accumulate, the one that covers the amount due makes it PAID (invoice.paid, once), and an excess goes to the customer’s ' +
          'balance (recorded on the payment). A DRAFT, PAID or CANCELLED invoice does not: the deposit goes to the balance, ' +
          'unmatched. Either way the whole amount is credited to the invoice’s balance account, its history naming the invoice ' +
          '(cause INVOICE_PAYMENT). 403 in production; 404 unknown invoice; 409 reference_reused, account_closed.',
        headers: writeHeaders,
        params: invoiceParams,
        body: simulatePaymentBody,
        response: { 200: simulatePaymentResult, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const invoice = await loadInvoice(deps.commands, organizationId, request.params.id, request.onBehalfOf)
      const amountMinor = BigInt(request.body.amount)
      assertAmountsWithinBound([{ field: 'amount', money: { currency: invoice.currency, amountMinor } }])
      const depositReference = request.body.depositReference ?? newId('req')
      const outcome = await payInvoice(deps.commands, invoice, { amountMinor, depositReference, source: 'SIMULATION' }, originFrom(request))
      await deps.commands.readYourWrites(outcome.position)
      return {
        invoiceId: invoice.invoiceId,
        depositReference,
        amount: toWire({ currency: invoice.currency, amountMinor }),
        matched: outcome.matched,
        credited: outcome.credited,
        balanceAccountId: invoice.balanceAccountId,
        invoice: toInvoiceResource(outcome.invoice),
      }
    },
  )
}
