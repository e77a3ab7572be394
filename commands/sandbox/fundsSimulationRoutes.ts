// Sandbox: put money into a balance account (fund-in) and settle a hold by hand, as a rail would.
// 403 in production. A fund-in is idempotent by its reference: the same reference and amount again
// credits nothing (`credited: false`); the same reference with another amount is 409 reference_reused.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { accountDecider, type OpenAccountState } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { invalid, notFound } from '../../domain/errors.js'
import { ID_PREFIXES, newId } from '../../domain/shared/ids.js'
import { assertAmountsWithinBound, majorDecimalAmount, moneyWire, parseMajor, toWire } from '../../domain/shared/money/index.js'
import { availableIn } from '../../domain/balance-account/funds.js'
import { streams } from '../../events/streams.js'
import { accountCurrencyCodeSchema } from '../../domain/shared/paymentRails.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands } from '../accounts/accountCommands.js'
import { accountIdParams, holdParams } from '../../http/accountParams.js'
import type { AccountRouteDeps } from '../accounts/deps.js'
import { holdResourceFrom, holdResourceSchema } from '../../domain/account/holdResource.js'
import { sandboxOnly } from './sandboxOnly.js'

export const FUND_IN_LIMITS = { referenceMaxLength: 80 } as const

const fundInBody = z
  .object({
    amount: majorDecimalAmount,
    currency: accountCurrencyCodeSchema.optional().describe("Defaults to the account's currency when it holds only one"),
    reference: z
      .string()
      .trim()
      .min(1)
      .max(FUND_IN_LIMITS.referenceMaxLength)
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
      .optional()
      .describe('Idempotency reference: the same reference and amount credits once. Omitted: a new one is generated'),
  })
  .strict()

const fundInResult = z.object({
  accountId: z.string(),
  reference: z.string(),
  amount: moneyWire,
  credited: z.boolean().describe('false when this reference had already credited the account (nothing credited again)'),
  available: moneyWire.describe('Available balance in that currency after the fund-in'),
})

const returnResult = z.object({
  accountId: z.string(),
  reference: z.string(),
  amount: moneyWire.describe('The amount taken back: all the fund-in credited'),
  available: moneyWire.describe('Available balance in that currency after the return'),
})

async function loadAccount(
  deps: AccountRouteDeps,
  organizationId: string,
  accountId: string,
  onBehalfOf?: string,
): Promise<OpenAccountState> {
  const { state } = await deps.commands.load(accountDecider, streams.account(accountId))
  if (state.status === 'none' || state.account.organizationId !== organizationId) throw notFound('Account', accountId)
  if (onBehalfOf !== undefined && state.account.customerId !== onBehalfOf) throw notFound('Account', accountId)
  return state
}

function currencyOf(account: OpenAccountState, asked: string | undefined): string {
  const codes = account.account.currencyCodes
  if (asked !== undefined) return asked
  if (codes.length === 1) return codes[0]!
  throw invalid('currency_required', `Account ${account.account.accountId} holds ${codes.join(', ')}: name the currency`, [
    { field: 'currency', message: `one of ${codes.join(', ')}` },
  ])
}

export const sandboxFundsSimulationRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  sandboxOnly(app, deps.environment)

  app.post(
    '/sandbox/accounts/:id/fund-in',
    {
      schema: {
        operationId: 'simulateFundIn',
        tags: ['Sandbox'],
        summary: 'Sandbox: credit a balance account',
        description:
          'Sandbox only (403 sandbox_only in production). Credits a balance account through the ledger (from the outside world to ' +
          'available) and emits balance.credited. Not for internal wallets (inw_): 422 fund_in_not_supported (fund those with the ' +
          "fixed route's simulate-deposit). 422 account_holds_no_balance, invalid_amount, amount_too_large (above 10^12 major units), " +
          'balance_limit_exceeded (a balance above 10^15 major units), currency_not_supported; 409 reference_reused when the ' +
          'reference already credited another amount, account_closed, account_not_active.',
        headers: writeHeaders,
        params: accountIdParams,
        body: fundInBody,
        response: { 200: fundInResult, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const accountId = request.params.id
      if (accountId.startsWith(`${ID_PREFIXES.internalWallet}_`))
        throw invalid(
          'fund_in_not_supported',
          'Internal wallets are funded by a deposit: use POST /v1/sandbox/fixed-routes/{id}/simulate-deposit',
          [{ field: 'id', message: 'must not be an internal wallet (inw_)', value: accountId }],
        )
      const account = await loadAccount(deps, organizationId, accountId, request.onBehalfOf)
      const currency = currencyOf(account, request.body.currency)
      if (!account.account.currencyCodes.includes(currency))
        throw invalid('currency_not_supported', `Account ${accountId} holds ${account.account.currencyCodes.join(', ')}`, [
          { field: 'currency', message: `one of ${account.account.currencyCodes.join(', ')}`, value: currency },
        ])
      const parsed = parseMajor(request.body.amount, currency)
      if (!parsed.ok || parsed.money.amountMinor <= 0n)
        throw invalid('invalid_amount', `The amount is not a positive ${currency} amount`, [
          { field: 'amount', message: parsed.ok ? 'must be more than zero' : parsed.reason, value: request.body.amount },
        ])
      assertAmountsWithinBound([{ field: 'amount', money: parsed.money, sent: request.body.amount }])
      const reference = request.body.reference ?? newId('req')
      const result = await accounts.handleToResult(request, {
        type: 'CreditFunds',
        organizationId,
        accountId,
        onBehalfOf: request.onBehalfOf,
        cause: `fund-in:${reference}`,
        currency,
        amountMinor: parsed.money.amountMinor,
        source: 'world',
        now: new Date().toISOString(),
      })
      const state = result.state
      const funds = state.status === 'none' ? undefined : state.funds
      return {
        accountId,
        reference,
        amount: toWire(parsed.money),
        credited: result.events.length > 0,
        available: toWire({ currency, amountMinor: funds ? availableIn(funds, currency) : 0n }),
      }
    },
  )

  app.post(
    '/sandbox/accounts/:id/fund-in/:reference/return',
    {
      schema: {
        operationId: 'simulateFundInReturn',
        tags: ['Sandbox'],
        summary: 'Sandbox: return a fund-in (the deposit bounced)',
        description:
          'Sandbox only (403 in production). Takes back the whole amount a fund-in credited (available to the outside world), as ' +
          "a returned deposit would: a reversal in the account's balance history. 404 unknown reference; 409 credit_already_returned; " +
          '422 insufficient_funds when the money was already held or paid out.',
        headers: writeHeaders,
        params: accountIdParams.extend({ reference: fundInBody.shape.reference.unwrap() }),
        response: { 200: returnResult, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { id: accountId, reference } = request.params
      const result = await accounts.handleToResult(request, {
        type: 'ReturnCredit',
        organizationId: principalOf(request).organizationId,
        accountId,
        onBehalfOf: request.onBehalfOf,
        cause: `fund-in:${reference}`,
        now: new Date().toISOString(),
      })
      const reversed = (result.events as AccountEvent[]).find((e) => e.type === 'CreditReversed')
      if (!reversed || result.state.status === 'none' || !result.state.funds) throw new Error('a return appended no reversal')
      const moved = reversed.data.transaction.postings.find((p) => BigInt(p.amountMinor) > 0n)!
      const currency = moved.currency
      return {
        accountId,
        reference,
        amount: toWire({ currency, amountMinor: BigInt(moved.amountMinor) }),
        available: toWire({ currency, amountMinor: availableIn(result.state.funds, currency) }),
      }
    },
  )

  app.post(
    '/sandbox/accounts/:id/holds/:holdId/settle',
    {
      schema: {
        operationId: 'simulateHoldSettlement',
        tags: ['Sandbox'],
        summary: 'Sandbox: settle a hold (the payout left)',
        description:
          'Sandbox only (403 in production; there the rail settles holds). The held funds leave the account (paid out to the world). ' +
          '404 unknown hold (a transfer’s own hold moves only with its transfer); 409 hold_closed when it was already settled or ' +
          'released.',
        headers: writeHeaders,
        params: holdParams,
        response: { 200: holdResourceSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => {
      const result = await accounts.handleToResult(request, {
        type: 'SettleHold',
        organizationId: principalOf(request).organizationId,
        accountId: request.params.id,
        onBehalfOf: request.onBehalfOf,
        holdId: request.params.holdId,
        // The payout left the service; a transfer's hold moves with its transfer only.
        to: 'world',
        byCaller: true,
        now: new Date().toISOString(),
      })
      return holdResourceFrom(result.events as AccountEvent[])
    },
  )
}
