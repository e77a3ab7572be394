// Read routes of balances: an account's balance, its history and its open holds, and a customer's
// treasury. Scoped to the organization and to X-On-Behalf-Of (queries.ts).
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { CUSTOMER_TAGS, customerIdParams } from '../../http/customerParams.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { accountIdParams as accountParams } from '../../http/accountParams.js'
import { decodeCursor, limitCursorPageSchema, limitCursorQuery, toLimitCursorPage } from '../../http/pagination/limitCursorPage.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import {
  type Scope,
  TREASURY_LIMITS,
  balanceAccountOr4xx,
  balancesOf,
  invoicesPaidBy,
  listEntries,
  listHolds,
  treasuryOf,
} from './queries.js'
import {
  accountBalanceResource,
  balanceTransactionResource,
  holdResource,
  toBalanceTransaction,
  toCurrencyBalance,
  toHold,
  treasuryResource,
} from './resources.js'

/** Spec Limits: the balance history's `limit` is 1 to 100, default 50 (the open holds list pages alike). */
export const BALANCE_PAGE_LIMITS = { min: 1, max: 100, default: 50 } as const

const TAGS = ['Balances']
const pageQuery = limitCursorQuery(BALANCE_PAGE_LIMITS)

const scopeOf = (request: FastifyRequest): Scope => ({
  organizationId: principalOf(request).organizationId,
  onBehalfOf: request.onBehalfOf,
})

export const balanceReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get(
    '/accounts/:id/balance',
    {
      schema: {
        operationId: 'getAccountBalance',
        tags: TAGS,
        summary: 'Read the balance of a balance account: available and committed funds per currency',
        description:
          'Only for accounts with holdsBalance true: another account answers 422 account_holds_no_balance. An account of ' +
          'another organization, or of another customer under X-On-Behalf-Of, answers 404.',
        headers: readHeaders,
        params: accountParams,
        response: { 200: accountBalanceResource, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const account = await balanceAccountOr4xx(db, scopeOf(request), request.params.id)
      const rows = await balancesOf(db, [account.accountId])
      return { accountId: account.accountId, balances: rows.map(toCurrencyBalance), asOf: account.updatedAt }
    },
  )

  app.get(
    '/accounts/:id/balance/transactions',
    {
      schema: {
        operationId: 'listBalanceTransactions',
        tags: TAGS,
        summary: 'List the balance history of a balance account, newest first',
        description:
          'One entry per movement: deposits and draws credited, holds for payouts, releases, payouts (settled holds) and ' +
          'reversals, each with its signed amount, the balance after it and its cause. Page with `limit` and the opaque ' +
          '`cursor` of the previous page (next_cursor); a cursor of another list or altered answers 422 invalid_cursor.',
        headers: readHeaders,
        params: accountParams,
        querystring: pageQuery,
        response: { 200: limitCursorPageSchema(balanceTransactionResource), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { id } = request.params
      const account = await balanceAccountOr4xx(db, scopeOf(request), id)
      const list = { id: `balance_transactions:${account.accountId}`, path: `/v1/accounts/${id}/balance/transactions` }
      const after = request.query.cursor === undefined ? undefined : decodeCursor(list.id, request.query.cursor)
      const rows = await listEntries(db, account, request.query.limit, after)
      const swept = rows.filter((row) => row.cause_type === 'TRANSFER').map((row) => row.cause_id)
      const invoices = await invoicesPaidBy(db, account, swept)
      return toLimitCursorPage(
        rows,
        request.query,
        list,
        (row) => BigInt(row.seq),
        (row) => toBalanceTransaction(row, invoices),
      )
    },
  )

  app.get(
    '/accounts/:id/holds',
    {
      schema: {
        operationId: 'listHolds',
        tags: TAGS,
        summary: 'List the open holds of a balance account (funds committed to payouts in flight), newest first',
        description: 'Their sum per currency is the committed balance. Paged like the balance history (limit, cursor).',
        headers: readHeaders,
        params: accountParams,
        querystring: pageQuery,
        response: { 200: limitCursorPageSchema(holdResource), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { id } = request.params
      const account = await balanceAccountOr4xx(db, scopeOf(request), id)
      const list = { id: `holds:${account.accountId}`, path: `/v1/accounts/${id}/holds` }
      const after = request.query.cursor === undefined ? undefined : decodeCursor(list.id, request.query.cursor)
      const rows = await listHolds(db, account, request.query.limit, after)
      return toLimitCursorPage(rows, request.query, list, (row) => BigInt(row.seq), toHold)
    },
  )

  app.get(
    '/customers/:id/treasury',
    {
      schema: {
        operationId: 'getCustomerTreasury',
        tags: [...CUSTOMER_TAGS, ...TAGS],
        summary: "A customer's treasury: its open balance accounts with their balances, and totals per currency",
        headers: readHeaders,
        params: customerIdParams,
        response: { 200: treasuryResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { id } = request.params
      const { accounts, totals, asOf } = await treasuryOf(db, scopeOf(request), id)
      const listed = accounts.slice(0, TREASURY_LIMITS.maxAccounts)
      const balances = await balancesOf(
        db,
        listed.map((a) => a.account_id),
      )
      return {
        customerId: id,
        accounts: listed.map((a) => ({
          accountId: a.account_id,
          type: a.type,
          balances: balances.filter((b) => b.account_id === a.account_id).map(toCurrencyBalance),
        })),
        hasMoreAccounts: accounts.length > TREASURY_LIMITS.maxAccounts,
        totals: totals.map(toCurrencyBalance),
        asOf,
      }
    },
  )
}
