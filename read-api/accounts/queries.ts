// Reads of the accounts read model, always scoped to one organization (and, with X-On-Behalf-Of or
// a customer's own list, to one customer). Lists are newest first within each id prefix (ids sort
// by prefix, then creation) and answer a page in two queries run together: the page (ids picked
// on an index, then their rows: a deep offset never reads the rows it skips) and one count that
// also gives the items before a cursor and whether the cursor is in the list.
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type { AccountResource } from '../../domain/account/resource.js'
import type { ListWindow } from '../../http/pagination/offsetShapedList.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { AccountFilters } from './listQuery.js'

export type AccountScope = {
  organizationId: string
  /** Only this customer's accounts (X-On-Behalf-Of, or the customer whose list it is). */
  customerId: string | undefined
}

/** What a list selects: the query's filters, or (virtual accounts) the accounts sweeping to one account. */
export type AccountSelection = AccountFilters & {
  sweepTargetAccountId?: string | undefined
  types?: readonly string[] | undefined
}

export type AccountPage = { data: AccountResource[]; total: number; offset: number }

/** A LIKE pattern matching the text literally at the start: `\`, `%` and `_` escaped (backslash is LIKE's escape). */
export const startsWithPattern = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const textArray = (values: readonly string[]) => sql<string[]>`${[...values]}::text[]`

function conditions(eb: ExpressionBuilder<ReadDatabase, 'accounts'>, scope: AccountScope, s: AccountSelection): Expression<SqlBool>[] {
  const all: Expression<SqlBool>[] = [eb('organization_id', '=', scope.organizationId)]
  const add = (condition: Expression<SqlBool>) => all.push(condition)
  if (scope.customerId !== undefined) add(eb('customer_id', '=', scope.customerId))
  if (s.customerId !== undefined) add(eb('customer_id', '=', s.customerId))
  if (s.id !== undefined) add(eb('id', 'like', startsWithPattern(s.id)))
  if (s.holdsBalance !== undefined) add(eb('holds_balance', '=', s.holdsBalance))
  if (s.balanceSourceEligible !== undefined) add(eb('balance_source_eligible', '=', s.balanceSourceEligible))
  if (s.counterpartyId !== undefined) add(eb('counterparty_id', '=', s.counterpartyId))
  if (s.type !== undefined) add(eb('type', '=', s.type))
  if (s.provider !== undefined) add(eb('provider', '=', s.provider))
  if (s.status !== undefined) add(eb('status', '=', s.status))
  if (s.addressType !== undefined) add(eb('address_type', '=', s.addressType))
  // Overlap: an account holding any of the currencies (on any of the rails) asked for.
  if (s.currencyCodes !== undefined) add(eb('currency_codes', '&&', textArray(s.currencyCodes)))
  if (s.paymentRails !== undefined) add(eb('payment_rails', '&&', textArray(s.paymentRails)))
  if (s.sweepTargetAccountId !== undefined) add(eb('sweep_target_account_id', '=', s.sweepTargetAccountId))
  if (s.types !== undefined) add(eb('type', 'in', [...s.types]))
  return all
}

function selected(db: Kysely<ReadDatabase>, scope: AccountScope, selection: AccountSelection) {
  return db.selectFrom('accounts').where((eb) => eb.and(conditions(eb, scope, selection)))
}

export async function findAccount(db: Kysely<ReadDatabase>, scope: AccountScope, id: string): Promise<AccountResource | undefined> {
  const row = await selected(db, scope, {}).select('resource').where('id', '=', id).executeTakeFirst()
  return row?.resource
}

/** Whether the customer is one of the organization's (and the X-On-Behalf-Of customer, if any). */
export async function customerVisible(db: Kysely<ReadDatabase>, scope: AccountScope, customerId: string): Promise<boolean> {
  if (scope.customerId !== undefined && scope.customerId !== customerId) return false
  const row = await db
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', customerId)
    .executeTakeFirst()
  return row !== undefined
}

/** Whether an account of the organization names the counterparty (on the partial counterparty index). */
export const accountsNameCounterparty =
  (db: Kysely<ReadDatabase>, organizationId: string) =>
  async (counterpartyId: string): Promise<boolean> =>
    (await db
      .selectFrom('accounts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('counterparty_id', '=', counterpartyId)
      .limit(1)
      .executeTakeFirst()) !== undefined

/** The accounts of `ids` visible in `scope` (one query), by id. */
export async function accountsByIds(
  db: Kysely<ReadDatabase>,
  scope: AccountScope,
  ids: readonly string[],
): Promise<Map<string, AccountResource>> {
  if (ids.length === 0) return new Map()
  const rows = await selected(db, scope, {})
    .select(['id', 'resource'])
    .where('id', 'in', [...ids])
    .execute()
  return new Map(rows.map((row) => [row.id, row.resource]))
}

/** The page's rows, in list order: ids first (index only), then the rows of just those ids. */
function pageRows(db: Kysely<ReadDatabase>, scope: AccountScope, selection: AccountSelection, window: ListWindow) {
  let ids = selected(db, scope, selection).select('id')
  ids = window.startingAfter !== undefined ? ids.where('id', '<', window.startingAfter) : ids.offset(window.offset)
  const page = ids.orderBy('id', 'desc').limit(window.size)
  return db
    .selectFrom(page.as('page'))
    .innerJoin('accounts', 'accounts.id', 'page.id')
    .select('accounts.resource')
    .orderBy('accounts.id', 'desc')
    .execute()
}

const isUnfiltered = (scope: AccountScope, selection: AccountSelection) =>
  scope.customerId === undefined && Object.values(selection).every((value) => value === undefined)

/** The organization's number of accounts, kept by the account counts projector (0 before its first). */
async function organizationCount(db: Kysely<ReadDatabase>, organizationId: string): Promise<number> {
  const row = await db.selectFrom('account_counts').select('accounts').where('organization_id', '=', organizationId).executeTakeFirst()
  return Number(row?.accounts ?? 0)
}

type Counts = { total: number; before: number; cursorFound: boolean }

/** Counts the selection: all of it, and (with a cursor) the cursor and newer items, in one scan. */
async function countSelection(
  db: Kysely<ReadDatabase>,
  scope: AccountScope,
  selection: AccountSelection,
  cursor: string | undefined,
  onlyUpToCursor: boolean,
): Promise<Counts> {
  let query = selected(db, scope, selection)
  if (onlyUpToCursor && cursor !== undefined) query = query.where('id', '>=', cursor)
  const row = await query
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      ...(cursor === undefined
        ? []
        : [
            eb.fn.countAll<string>().filterWhere('id', '>=', cursor).as('before'),
            eb.fn.countAll<string>().filterWhere('id', '=', cursor).as('cursor'),
          ]),
    ])
    .executeTakeFirstOrThrow()
  return { total: Number(row.total), before: Number(row.before ?? 0), cursorFound: Number(row.cursor ?? 0) > 0 }
}

/**
 * The items matching, those before the cursor (the cursor and newer), and whether the cursor is
 * one of them. Unfiltered, the total is the organization's kept count and only the items up to
 * the cursor are counted.
 */
async function counts(
  db: Kysely<ReadDatabase>,
  scope: AccountScope,
  selection: AccountSelection,
  cursor: string | undefined,
): Promise<Counts> {
  if (!isUnfiltered(scope, selection)) return countSelection(db, scope, selection, cursor, false)
  const [total, upToCursor] = await Promise.all([
    organizationCount(db, scope.organizationId),
    cursor === undefined ? undefined : countSelection(db, scope, selection, cursor, true),
  ])
  return { total, before: upToCursor?.before ?? 0, cursorFound: upToCursor?.cursorFound ?? false }
}

/** One page and its counts; undefined when starting_after names no account of the filtered list. */
export async function listAccounts(
  db: Kysely<ReadDatabase>,
  scope: AccountScope,
  selection: AccountSelection,
  window: ListWindow,
): Promise<AccountPage | undefined> {
  const [rows, counted] = await Promise.all([pageRows(db, scope, selection, window), counts(db, scope, selection, window.startingAfter)])
  if (window.startingAfter !== undefined && !counted.cursorFound) return undefined
  return {
    data: rows.map((row) => row.resource),
    total: counted.total,
    offset: window.startingAfter !== undefined ? counted.before : window.offset,
  }
}
