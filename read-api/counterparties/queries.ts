// Reads of the counterparties read model, scoped to the organization and, with X-On-Behalf-Of,
// to that customer. Addresses are opened (sealedColumns.ts) one key lookup per page.
import type { Kysely, Selectable } from 'kysely'
import type { BeneficiaryType } from '../../domain/counterparty/enums.js'
import type { CounterpartyResource } from '../../domain/counterparty/resource.js'
import type { ListWindow } from '../../http/pagination/offsetShapedList.js'
import type { CounterpartiesTable, ReadDatabase } from '../../projections/schema.js'
import { type DataProtection, sealedCounterpartyAddress } from '../../projections/sealedColumns.js'

export type CounterpartyScope = { organizationId: string; onBehalfOf: string | undefined }
export type CounterpartyFilters = { customerId?: string | undefined; beneficiaryType?: BeneficiaryType | undefined }

type Row = Selectable<CounterpartiesTable>

async function toResources(protection: DataProtection, rows: Row[]): Promise<CounterpartyResource[]> {
  const addresses = await sealedCounterpartyAddress.openMany(
    protection,
    rows.map((row) => ({ id: row.id, value: row.address, subject: row.customer_id })),
  )
  return rows.map((row, i) => ({
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    beneficiaryType: row.beneficiary_type,
    address: addresses[i] ?? null,
    isThirdParty: row.is_third_party,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }))
}

function scoped(db: Kysely<ReadDatabase>, scope: CounterpartyScope, filters: CounterpartyFilters = {}) {
  let q = db.selectFrom('counterparties').where('organization_id', '=', scope.organizationId)
  if (scope.onBehalfOf !== undefined) q = q.where('customer_id', '=', scope.onBehalfOf)
  if (filters.customerId !== undefined) q = q.where('customer_id', '=', filters.customerId)
  if (filters.beneficiaryType !== undefined) q = q.where('beneficiary_type', '=', filters.beneficiaryType)
  return q
}

export async function findCounterparty(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: CounterpartyScope,
  id: string,
): Promise<CounterpartyResource | undefined> {
  const row = await scoped(db, scope).selectAll().where('id', '=', id).executeTakeFirst()
  return row ? (await toResources(protection, [row]))[0] : undefined
}

/** The counterparties of `ids` in the scope, by id: one query and one key lookup (an account page's expand). */
export async function counterpartiesByIds(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: CounterpartyScope,
  ids: readonly string[],
): Promise<Map<string, CounterpartyResource>> {
  if (ids.length === 0) return new Map()
  const rows = await scoped(db, scope)
    .selectAll()
    .where('id', 'in', [...ids])
    .execute()
  return new Map((await toResources(protection, rows)).map((resource) => [resource.id, resource]))
}

/**
 * One page, newest first, with the count of items matching the filters and of items before the
 * page; undefined when the cursor names no item of the filtered list.
 */
export async function listCounterparties(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: CounterpartyScope,
  filters: CounterpartyFilters,
  window: ListWindow,
): Promise<{ data: CounterpartyResource[]; total: number; offset: number } | undefined> {
  const base = scoped(db, scope, filters)
  const count = async (q: typeof base) => Number((await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
  const total = await count(base)
  if (window.startingAfter !== undefined) {
    const cursor = window.startingAfter
    if (!(await base.select('id').where('id', '=', cursor).executeTakeFirst())) return undefined
    const rows = await base.selectAll().where('id', '<', cursor).orderBy('id', 'desc').limit(window.size).execute()
    return { data: await toResources(protection, rows), total, offset: await count(base.where('id', '>=', cursor)) }
  }
  const rows = await base.selectAll().orderBy('id', 'desc').offset(window.offset).limit(window.size).execute()
  return { data: await toResources(protection, rows), total, offset: window.offset }
}
