// Holds on a balance account: commit available funds to a payout in flight, or release them. On a
// hot account many requests hold at once: the account's stream decides them in turn (the command
// runtime's per-stream queue), so each one is answered on the balance it finds: held, or 422
// insufficient_funds, never a 409 for the race. Settling is the rail's part (the transfers issue);
// the sandbox can settle one by hand (commands/sandbox/fundsSimulationRoutes.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AccountEvent } from '../../domain/account/events.js'
import { newId } from '../../domain/shared/ids.js'
import { assertAmountsWithinBound, positiveMinorAmount } from '../../domain/shared/money/index.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands } from './accountCommands.js'
import { accountIdParams, holdParams } from '../../http/accountParams.js'
import type { AccountRouteDeps } from './deps.js'
import { holdResourceFrom, holdResourceSchema } from '../../domain/account/holdResource.js'

const placeHoldBody = z
  .object({
    currency: z.string().min(3).max(5).describe('One of the account currencyCodes'),
    amount: positiveMinorAmount,
  })
  .strict()

export const holdRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)

  app.post(
    '/accounts/:id/holds',
    {
      schema: {
        operationId: 'createHold',
        tags: ['Balances'],
        summary: 'Hold funds of a balance account',
        description:
          'Moves the amount from available to committed for a payout in flight. 422 insufficient_funds when available does not cover ' +
          'it (with the available amount in details), 422 amount_too_large (above 10^12 major units of the currency), 422 ' +
          'currency_not_supported, 422 account_holds_no_balance for accounts without a balance, 409 account_not_active or ' +
          'account_closed.',
        headers: writeHeaders,
        params: accountIdParams,
        body: placeHoldBody,
        response: { 201: holdResourceSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { currency, amount } = request.body
      // The bound of the named currency first; one the account does not hold is the decider's 422.
      assertAmountsWithinBound([{ field: 'amount', money: { currency, amountMinor: BigInt(amount) } }])
      const result = await accounts.handleToResult(request, {
        type: 'PlaceHold',
        organizationId: principalOf(request).organizationId,
        accountId: request.params.id,
        onBehalfOf: request.onBehalfOf,
        holdId: newId('hld'),
        currency,
        amountMinor: BigInt(amount),
        now: new Date().toISOString(),
      })
      return reply.code(201).send(holdResourceFrom(result.events as AccountEvent[]))
    },
  )

  app.post(
    '/accounts/:id/holds/:holdId/release',
    {
      schema: {
        operationId: 'releaseHold',
        tags: ['Balances'],
        summary: 'Release a hold',
        description:
          'Returns the held funds to available. 404 unknown hold (a transfer’s own hold moves only with its transfer); 409 ' +
          'hold_closed when it was already settled or released.',
        headers: writeHeaders,
        params: holdParams,
        response: { 200: holdResourceSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const result = await accounts.handleToResult(request, {
        type: 'ReleaseHold',
        organizationId: principalOf(request).organizationId,
        accountId: request.params.id,
        onBehalfOf: request.onBehalfOf,
        holdId: request.params.holdId,
        byCaller: true,
        now: new Date().toISOString(),
      })
      return holdResourceFrom(result.events as AccountEvent[])
    },
  )
}
