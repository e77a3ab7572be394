// Sandbox: POST /v1/sandbox/fixed-routes/{id}/simulate-deposit, a deposit arriving at a fixed route's
// coordinates (403 in production). The deposit is recorded on the route once per reference and
// amount (domain/fixed-route/deposits.ts: its rail, its remitter, whether it is held), then swept
// (commands/fixed-routes/sweepDeposit.ts): the same reference and amount again answers the same sweep,
// resumed where it stopped, with the rail and remitter first recorded.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { invalid } from '../../domain/errors.js'
import { depositHold, depositKey, depositOriginator, depositRail } from '../../domain/fixed-route/deposits.js'
import { FIXED_ROUTE_LIMITS } from '../../domain/fixed-route/limits.js'
import { asFixedRoute } from '../../domain/fixed-route/resource.js'
import { newId } from '../../domain/shared/ids.js'
import {
  assertAmountsWithinBound,
  formatDecimal,
  majorDecimalAmount,
  parseMajor,
  requireExponent,
  withAmountBound,
} from '../../domain/shared/money/index.js'
import { transferStatusSchema } from '../../domain/transfer/statuses.js'
import { fixedRouteParams } from '../../http/accountParams.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands } from '../accounts/accountCommands.js'
import type { AccountRouteDeps } from '../accounts/deps.js'
import { loadFixedRoute } from '../fixed-routes/fixedRouteFacts.js'
import { planSweep, sweepDeposit } from '../fixed-routes/sweepDeposit.js'
import { matchFixedRouteDeposit } from '../invoices/invoicePayments.js'
import { originFrom } from '../runtime/requestOrigin.js'
import { originatorBody } from './originatorBody.js'
import { sandboxOnly } from './sandboxOnly.js'
import { recentGet, recentHas } from '../../domain/shared/recentEntries.js'

const bankField = (max: number) => z.string().trim().min(1).max(max)

const simulateDepositBody = z
  .object({
    amount: majorDecimalAmount.describe(withAmountBound('The deposit in major units, an exact decimal ("125.50")')),
    currency: z.string().max(10).optional().describe("Defaults to the route's source currency (the only one it takes)"),
    reference: z
      .string()
      .trim()
      .min(1)
      .max(FIXED_ROUTE_LIMITS.referenceMaxLength)
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
      .optional()
      .describe(
        'Idempotency reference: the same reference and amount is the same deposit (its sweep is answered); another amount is 409 ' +
          'reference_reused. Omitted: a new one',
      ),
    paymentReference: z
      .string()
      .trim()
      .min(1)
      .max(FIXED_ROUTE_LIMITS.paymentReferenceMaxLength)
      .regex(/^[\x20-\x7e]+$/, 'printable ASCII')
      .optional()
      .describe(
        "What the payer wrote in the payment's reference field: an invoice's payment reference (INV-...) pays that invoice of the " +
          "route's customer when the route sweeps into the invoice's balance account. Several deposits may carry the same one",
      ),
    rail: z
      .enum(['ACH', 'WIRE', 'SWIFT'])
      .optional()
      .describe(
        "Fiat routes: the rail it arrives on (default: the route's stored rail, ACH when it takes ACH and wire); ignored on crypto",
      ),
    senderBank: z
      .object({ bankName: bankField(200).optional(), routingNumber: bankField(34).optional(), swiftBic: bankField(11).optional() })
      .strict()
      .optional()
      .describe("The sending bank, checked against the route's allowedSenderBanks"),
    originator: originatorBody.optional(),
  })
  .strict()

const simulateDepositResult = z.object({
  accountId: z.string().describe('The route’s source account id (the route id)'),
  transferId: z.string().describe('The sweep transfer, created or replayed'),
  sweepReferenceId: z.string().describe('The sweep’s idempotency key: the reference and the amount in minor units ("ref:12550")'),
  status: transferStatusSchema.describe('The sweep transfer’s status now (COMPLETED at once into a balance account)'),
  rail: z.string().describe('The rail (or chain) the deposit was recorded on'),
  held: z
    .object({ code: z.string(), reason: z.string() })
    .nullable()
    .describe(
      'Why the deposit is held instead of swept (deposit_unattributed, sender_bank_not_allowed, below_minimum_amount, ' +
        'destination_unavailable: the target refused the credit, the money is in suspense)',
    ),
  invoiceId: z
    .string()
    .nullable()
    .describe(
      "The invoice the deposit paid: its paymentReference (or reference) was that invoice's payment reference (INV-...), of " +
        "the route's customer, and the route sweeps into the invoice's balance account; null otherwise",
    ),
})

export const sandboxFixedRouteSimulationRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  sandboxOnly(app, deps.environment)
  app.post(
    '/sandbox/fixed-routes/:id/simulate-deposit',
    {
      schema: {
        operationId: 'simulateFixedRouteDeposit',
        tags: ['Sandbox'],
        summary: 'Simulate a deposit at a fixed route',
        description:
          'A deposit arrives at the route’s coordinates and is swept to its target (a balance target is credited at once, with ' +
          'balance.credited). The same reference and amount answers the existing sweep, keeping its rail and remitter; the same ' +
          'reference with another amount is 409 reference_reused. Held, not swept (the sweep IN_REVIEW, `held` says why): no ' +
          'sender-bank data on a route with allowedSenderBanks, a bank outside the list, an amount below minimumAmount, a target ' +
          'that closed while the deposit was swept (its money held in suspense). 403 in production; 404 unknown route; 409 ' +
          'fixed_route_disabled, account_closed, reference_reused; 422 ' +
          'invalid_amount, amount_too_large, currency_not_accepted, rail_not_accepted (only when no sweep exists for that reference ' +
          'and amount).',
        headers: writeHeaders,
        params: fixedRouteParams,
        body: simulateDepositBody,
        response: { 200: simulateDepositResult, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const routeId = request.params.id
      const body = request.body
      const route = await loadFixedRoute(deps.commands, organizationId, routeId, request.onBehalfOf)
      const config = route.account.details.route
      const currency = body.currency ?? config.sourceCurrency
      if (currency !== config.sourceCurrency)
        throw invalid('currency_not_accepted', `The fixed route takes ${config.sourceCurrency} deposits only`, [
          { field: 'currency', message: `must be ${config.sourceCurrency}`, value: currency },
        ])
      const parsed = parseMajor(body.amount, currency)
      if (!parsed.ok || parsed.money.amountMinor <= 0n)
        throw invalid('invalid_amount', `The amount is not a positive ${currency} amount`, [
          { field: 'amount', message: parsed.ok ? 'must be more than zero' : parsed.reason, value: body.amount },
        ])
      assertAmountsWithinBound([{ field: 'amount', money: parsed.money, sent: body.amount }])
      const amountMinor = parsed.money.amountMinor
      const reference = body.reference ?? newId('req')
      const key = depositKey(reference, amountMinor.toString())
      const now = new Date()
      const chosen = depositRail(config, body.rail)
      const rail = 'rail' in chosen ? chosen.rail : String(chosen.refused.value)
      const originator = depositOriginator(config, rail, body.originator, body.senderBank)
      const hold = depositHold(config, {
        amountMinor,
        displayAmount: `${formatDecimal(amountMinor, requireExponent(currency))} ${currency}`,
        senderBank: body.senderBank,
        originator,
      })
      const senderBank = body.senderBank
        ? {
            bankName: body.senderBank.bankName ?? null,
            routingNumber: body.senderBank.routingNumber ?? null,
            swiftBic: body.senderBank.swiftBic ?? null,
          }
        : null
      const customerId = route.account.customerId
      if (customerId === null) throw new Error(`fixed route ${routeId} has no customer`)
      const draft = {
        customerId,
        reference,
        paymentReference: body.paymentReference ?? null,
        amount: { currency, amountMinor: amountMinor.toString() },
        rail,
        originator,
        senderBank,
        hold,
        transferId: newId('tfr'),
      }
      // A new deposit's sweep must be possible before the deposit is recorded (its target still open, the
      // customer still approved): a refusal then records nothing.
      const planned = !recentHas(route.deposits, key) && 'rail' in chosen ? await planSweep(deps, route, draft, now) : undefined
      const { customerId: _c, ...deposit } = draft
      const state = await accounts.handleToState(request, {
        type: 'RecordFixedRouteDeposit',
        organizationId,
        accountId: routeId,
        now: now.toISOString(),
        onBehalfOf: request.onBehalfOf,
        deposit,
        refusal:
          'refused' in chosen
            ? { code: 'rail_not_accepted', message: `The fixed route does not take deposits on ${rail}`, details: [chosen.refused] }
            : null,
      })
      const recordedRoute = state.status === 'none' ? undefined : asFixedRoute(state)
      const recorded = recordedRoute && recentGet(recordedRoute.deposits, key)
      if (!recordedRoute || !recorded) throw new Error(`deposit ${key} missing after it was recorded`)
      // The plan made above serves when this request's deposit is the one recorded (not a concurrent twin's).
      const ours = recorded.transferId === draft.transferId ? planned : undefined
      const swept = await sweepDeposit(deps.commands, deps, recordedRoute, recorded, originFrom(request), ours)
      // A reference naming an invoice of the customer pays it (the workflow does it again after a crash).
      const invoice = await matchFixedRouteDeposit(deps.commands, { ...recorded, accountId: routeId, organizationId }, originFrom(request))
      await deps.commands.readYourWrites(invoice.position ?? swept.position)
      return {
        accountId: routeId,
        transferId: recorded.transferId,
        sweepReferenceId: key,
        status: swept.transfer.status,
        rail: recorded.rail,
        // Held at the deposit (unattributed, below the minimum), or after it (the target refused the credit).
        held: recorded.hold ?? (swept.transfer.status === 'IN_REVIEW' ? swept.transfer.review : null),
        invoiceId: invoice.matched ? invoice.invoiceId : null,
      }
    },
  )
}
