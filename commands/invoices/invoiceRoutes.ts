// Invoice writes (issue 28): create (on behalf of an APPROVED customer holding a balance account in the
// currency; Idempotency-Key replays), change or delete a DRAFT, finalize or send (DRAFT to OPEN, the
// payment reference set), resend, cancel. Every answer is the invoice as GET shows it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { InvoiceCommand } from '../../domain/invoice/decider.js'
import { createInvoiceBody, updateInvoiceBody } from '../../domain/invoice/invoiceBody.js'
import { invoiceResource, toInvoiceResource } from '../../domain/invoice/resource.js'
import type { PayeeAccountReads } from '../../domain/invoice/payee.js'
import type { InvoiceState } from '../../domain/invoice/state.js'
import { ID_PREFIXES, newId } from '../../domain/shared/ids.js'
import { deletedResource } from '../../http/deletedResource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { INVOICE_TAGS, invoiceParams } from '../../http/invoiceParams.js'
import { principalOf } from '../../http/principal.js'
import { scopedCustomerId } from '../customers/scope.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { invoiceBinding } from './invoiceCommands.js'
import { loadInvoice, loadPayeeFacts } from './invoiceFacts.js'

export type InvoiceRouteDeps = { commands: CommandRuntime; payeeAccounts: PayeeAccountReads; clock: () => Date }

export const INVOICE_ROUTE_LIMITS = { cancelReasonMaxLength: 500 } as const

const cancelBody = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(INVOICE_ROUTE_LIMITS.cancelReasonMaxLength)
      .optional()
      .describe('Why (kept on the invoice and sent in invoice.cancelled)'),
  })
  .strict()
  .nullish()

function resourceOf(state: InvoiceState) {
  if (state.status === 'none' || state.status === 'deleted') throw new Error('an invoice command left no invoice')
  return toInvoiceResource(state)
}

const LIFECYCLE =
  'DRAFT (editable, deletable) → OPEN (finalize or send: immutable, payable by its reference) → PAID or CANCELLED (final). ' +
  'Corrections are cancel and re-issue.'

export const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRouteDeps> = async (app, deps) => {
  const invoices = deps.commands.bind(invoiceBinding)
  const now = () => deps.clock().toISOString()
  /** Runs a command on an invoice the caller sees (404 otherwise), answering the invoice after it. */
  const onInvoice = async (request: FastifyRequest, invoiceId: string, command: (scope: { organizationId: string }) => InvoiceCommand) => {
    const { organizationId } = principalOf(request)
    await loadInvoice(deps.commands, organizationId, invoiceId, request.onBehalfOf)
    return invoices.handleToState(request, command({ organizationId }))
  }

  app.post(
    '/invoices',
    {
      schema: {
        operationId: 'createInvoice',
        tags: INVOICE_TAGS,
        summary: 'Create an invoice (a DRAFT) on behalf of a customer',
        description:
          'The customer (the payee) must be APPROVED (422 customer_not_approved) and hold an active balance account in the ' +
          'currency (422 invoice_balance_account_missing): the payer’s money lands there. Line items are in minor units; the ' +
          'service computes each line’s amount and the totals. The payer’s name, email and street lines are personal data, sealed ' +
          `at rest. ${LIFECYCLE} Idempotency-Key replays the first answer. 404 for another organization’s customer.`,
        headers: writeHeaders,
        body: createInvoiceBody,
        response: { 201: invoiceResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const body = request.body
      const customerId = scopedCustomerId(request, body.customerId) ?? body.customerId
      const payee = await loadPayeeFacts(deps.commands, deps.payeeAccounts, organizationId, customerId, body.currency)
      const state = await invoices.handleToState(request, {
        type: 'CreateInvoice',
        organizationId,
        invoiceId: newId(ID_PREFIXES.invoice),
        body,
        payee,
        now: now(),
      })
      return reply.code(201).send(resourceOf(state))
    },
  )

  app.patch(
    '/invoices/:id',
    {
      schema: {
        operationId: 'updateInvoice',
        tags: INVOICE_TAGS,
        summary: 'Change a DRAFT invoice',
        description:
          'Any of payer, lineItems (replaced whole; the totals are computed again), dueDate, memo, metadata. The customer and ' +
          'the currency are fixed. 409 invoice_invalid_transition once it is OPEN, PAID or CANCELLED (cancel and re-issue). A change ' +
          'that changes nothing answers the invoice as it is.',
        headers: writeHeaders,
        params: invoiceParams,
        body: updateInvoiceBody,
        response: { 200: invoiceResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const { id } = request.params
      return resourceOf(
        await onInvoice(request, id, ({ organizationId }) => ({
          type: 'UpdateInvoice',
          organizationId,
          invoiceId: id,
          changes: request.body,
          now: now(),
        })),
      )
    },
  )

  app.delete(
    '/invoices/:id',
    {
      schema: {
        operationId: 'deleteInvoice',
        tags: INVOICE_TAGS,
        summary: 'Delete a DRAFT invoice',
        description:
          'Only a DRAFT goes (409 invoice_invalid_transition otherwise: cancel an OPEN invoice). It is then 404 everywhere; ' +
          'no event is sent.',
        headers: writeHeaders,
        params: invoiceParams,
        response: { 200: deletedResource, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { id } = request.params
      await onInvoice(request, id, ({ organizationId }) => ({ type: 'DeleteInvoice', organizationId, invoiceId: id, now: now() }))
      return { id, deleted: true as const }
    },
  )

  /** The moves without a body: finalize (DRAFT to OPEN) and send (finalizing a DRAFT first, then recording a send). */
  const moves = [
    {
      action: 'finalize',
      operationId: 'finalizeInvoice',
      type: 'FinalizeInvoice',
      summary: 'Finalize a DRAFT invoice: OPEN, with its payment reference (no send recorded)',
      description:
        'From here it never changes and a deposit carrying its reference pays it. Finalizing an OPEN invoice again answers it ' +
        'as it is. 409 for a PAID or CANCELLED one; 422 invoice_due_date_invalid when its due date has passed.',
    },
    {
      action: 'send',
      operationId: 'sendInvoice',
      type: 'SendInvoice',
      summary: 'Send an invoice to its payer (finalizing a DRAFT first)',
      description:
        'Records the send and emits invoice.sent; the sandbox sends no email (delivery RECORDED_ONLY). An OPEN invoice may be ' +
        'sent again (at most 10 sends: 409 invoice_send_limit_reached). 409 for a PAID or CANCELLED one. Not idempotent by ' +
        'itself: use an Idempotency-Key to retry safely.',
    },
  ] as const
  for (const move of moves)
    app.post(
      `/invoices/:id/${move.action}`,
      {
        schema: {
          operationId: move.operationId,
          tags: INVOICE_TAGS,
          summary: move.summary,
          description: move.description,
          headers: writeHeaders,
          params: invoiceParams,
          response: { 200: invoiceResource, ...errorResponses(404, 409, 422) },
        },
      },
      async (request) => {
        const { id } = request.params
        return resourceOf(
          await onInvoice(request, id, ({ organizationId }) => ({ type: move.type, organizationId, invoiceId: id, now: now() })),
        )
      },
    )

  app.post(
    '/invoices/:id/cancel',
    {
      schema: {
        operationId: 'cancelInvoice',
        tags: INVOICE_TAGS,
        summary: 'Cancel an OPEN invoice (final)',
        description:
          'Emits invoice.cancelled. What was paid before stays in the customer’s balance, where it landed; later deposits with ' +
          'its reference go to the balance, unmatched. Cancelling a CANCELLED invoice answers it as it is; 409 for a DRAFT ' +
          '(delete it) or a PAID one.',
        headers: writeHeaders,
        params: invoiceParams,
        body: cancelBody,
        response: { 200: invoiceResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const { id } = request.params
      return resourceOf(
        await onInvoice(request, id, ({ organizationId }) => ({
          type: 'CancelInvoice',
          organizationId,
          invoiceId: id,
          reason: request.body?.reason ?? null,
          now: now(),
        })),
      )
    },
  )
}
