// Reads of the liquidity facility's read model, always scoped to one organization. The fee of an
// open draw is computed at the moment of the read (asOf), by the domain's one fee function.
import type { Kysely, Selectable } from 'kysely'
import { FACILITY_CURRENCIES, type FacilityCurrency } from '../../domain/liquidity-facility/events.js'
import type { DrawView, FacilityView } from '../../domain/liquidity-facility/resource.js'
import { unconfiguredFacility } from '../../domain/liquidity-facility/state.js'
import { type CursorQuery, unknownCursor } from '../../http/pagination/cursorPage.js'
import type { LiquidityDrawsTable, LiquidityRepaymentsTable, ReadDatabase } from '../../projections/schema.js'
import { idCursorPage } from '../sql/idCursorPage.js'

export type DrawRow = Selectable<LiquidityDrawsTable>
export type RepaymentRow = Selectable<LiquidityRepaymentsTable>

const currencyOf = (code: string): FacilityCurrency => {
  const known = FACILITY_CURRENCIES.find((c) => c === code)
  if (!known) throw new Error(`liquidity facility row in an unknown currency ${code}`)
  return known
}

/** The organization's facility; one never configured reads as a zero limit (unconfiguredFacility). */
export async function findFacility(db: Kysely<ReadDatabase>, organizationId: string): Promise<FacilityView> {
  const row = await db.selectFrom('liquidity_facilities').selectAll().where('organization_id', '=', organizationId).executeTakeFirst()
  if (!row) {
    const f = unconfiguredFacility()
    return { ...f, openDraws: 0 }
  }
  return {
    currency: currencyOf(row.currency),
    network: 'SOLANA',
    creditLimitMinor: BigInt(row.credit_limit),
    borrowedMinor: BigInt(row.borrowed),
    openDraws: row.open_draws,
    maximumDrawMinor: BigInt(row.maximum_draw),
    terms: { fundingFeeBpsPerHour: row.fee_bps_per_hour, feeCapHours: row.fee_cap_hours },
    payoutTreasuryId: row.payout_treasury_id,
  }
}

export function drawRowToView(row: DrawRow): DrawView {
  return {
    id: row.id,
    currency: row.currency,
    principalMinor: BigInt(row.amount),
    principalRepaidMinor: BigInt(row.principal_repaid),
    feePaidMinor: BigInt(row.fee_paid),
    terms: { fundingFeeBpsPerHour: row.fee_bps_per_hour, feeCapHours: row.fee_cap_hours },
    payoutTreasuryId: row.payout_treasury_id,
    reference: row.reference,
    drawnAt: row.drawn_at.toISOString(),
    repaidAt: row.repaid_at === null ? null : row.repaid_at.toISOString(),
    failure:
      row.failed_at === null
        ? null
        : { code: row.failure_code ?? 'draw_failed', reason: row.failure_reason ?? '', at: row.failed_at.toISOString() },
  }
}

export async function findDraw(db: Kysely<ReadDatabase>, organizationId: string, id: string): Promise<DrawRow | undefined> {
  return db.selectFrom('liquidity_draws').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
}

export async function findRepayment(db: Kysely<ReadDatabase>, organizationId: string, id: string): Promise<RepaymentRow | undefined> {
  return db
    .selectFrom('liquidity_repayments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/**
 * One page of draws plus one row, newest first, optionally of one status; a cursor that names no
 * draw of the organization's list is refused.
 */
export async function listDraws(
  db: Kysely<ReadDatabase>,
  organizationId: string,
  query: CursorQuery & { status?: LiquidityDrawsTable['status'] | undefined },
): Promise<DrawRow[]> {
  const all = db.selectFrom('liquidity_draws').selectAll().where('organization_id', '=', organizationId)
  const listed = query.status === undefined ? all : all.where('status', '=', query.status)
  const cursor = query.starting_after ?? query.ending_before
  if (cursor !== undefined && !(await listed.where('id', '=', cursor).executeTakeFirst())) throw unknownCursor(query)
  return idCursorPage(listed, query)
}

/** One page of repayments plus one row, newest first; the same cursor rules as the draws. */
export async function listRepayments(db: Kysely<ReadDatabase>, organizationId: string, query: CursorQuery): Promise<RepaymentRow[]> {
  const listed = db.selectFrom('liquidity_repayments').selectAll().where('organization_id', '=', organizationId)
  const cursor = query.starting_after ?? query.ending_before
  if (cursor !== undefined && !(await listed.where('id', '=', cursor).executeTakeFirst())) throw unknownCursor(query)
  return idCursorPage(listed, query)
}
