// Projects the liquidity facility: one row per organization's facility (terms, payout treasury,
// borrowed and open draws), one per draw (principal and fee repaid, status, why it failed) and one per repayment.
// Fees accrue with time, so the rows keep what was drawn and paid, and the read API computes the
// fee accrued at the moment it answers (domain/liquidity-facility/fee.ts).
import { type Insertable, type Kysely, sql } from 'kysely'
import type { LiquidityFacilityEvent } from '../domain/liquidity-facility/events.js'
import { unconfiguredFacility } from '../domain/liquidity-facility/state.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { LiquidityFacilitiesTable, ReadDatabase } from './schema.js'
import type { Projector } from './runtime/projector.js'

type EventOf<T extends LiquidityFacilityEvent['type']> = Extract<LiquidityFacilityEvent, { type: T }>['data']

// ---- Evolve: event to rows (pure) -------------------------------------------------------------
/** The row of an organization whose facility was never configured (a payout treasury set first). */
function unconfiguredRow(organizationId: string, updatedAt: string): Insertable<LiquidityFacilitiesTable> {
  const f = unconfiguredFacility()
  return {
    organization_id: organizationId,
    configured: false,
    currency: f.currency,
    network: f.network,
    credit_limit: f.creditLimitMinor.toString(),
    maximum_draw: f.maximumDrawMinor.toString(),
    fee_bps_per_hour: f.terms.fundingFeeBpsPerHour,
    fee_cap_hours: f.terms.feeCapHours,
    payout_treasury_id: null,
    borrowed: '0',
    open_draws: 0,
    updated_at: updatedAt,
  }
}

const termsColumns = (d: EventOf<'LiquidityFacilityConfigured'>) => ({
  configured: true,
  currency: d.currency,
  network: d.network,
  credit_limit: d.creditLimitMinor,
  maximum_draw: d.maximumDrawMinor,
  fee_bps_per_hour: d.fundingFeeBpsPerHour,
  fee_cap_hours: d.feeCapHours,
  updated_at: d.configuredAt,
})

// ---- Write ------------------------------------------------------------------------------------
async function configure(db: Kysely<ReadDatabase>, d: EventOf<'LiquidityFacilityConfigured'>) {
  const terms = termsColumns(d)
  await db
    .insertInto('liquidity_facilities')
    .values({ ...unconfiguredRow(d.organizationId, d.configuredAt), ...terms })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(terms))
    .execute()
}

async function setTreasury(db: Kysely<ReadDatabase>, d: EventOf<'PayoutTreasurySet'>) {
  const changed = { payout_treasury_id: d.payoutTreasuryId, updated_at: d.setAt }
  await db
    .insertInto('liquidity_facilities')
    .values({ ...unconfiguredRow(d.organizationId, d.setAt), ...changed })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(changed))
    .execute()
}

async function takeDraw(db: Kysely<ReadDatabase>, d: EventOf<'DrawTaken'>) {
  await db
    .insertInto('liquidity_draws')
    .values({
      id: d.drawId,
      organization_id: d.organizationId,
      currency: d.currency,
      amount: d.amountMinor,
      principal_repaid: '0',
      fee_paid: '0',
      fee_bps_per_hour: d.fundingFeeBpsPerHour,
      fee_cap_hours: d.feeCapHours,
      payout_treasury_id: d.payoutTreasuryId,
      reference: d.reference,
      status: 'OPEN',
      drawn_at: d.drawnAt,
      repaid_at: null,
      failure_code: null,
      failure_reason: null,
      failed_at: null,
    })
    .execute()
  await db
    .updateTable('liquidity_facilities')
    .set({
      borrowed: sql`borrowed + ${d.amountMinor}::numeric`,
      open_draws: sql`open_draws + 1`,
      updated_at: d.drawnAt,
    })
    .where('organization_id', '=', d.organizationId)
    .execute()
}

async function receiveRepayment(db: Kysely<ReadDatabase>, d: EventOf<'RepaymentReceived'>) {
  await db
    .insertInto('liquidity_repayments')
    .values({
      id: d.repaymentId,
      organization_id: d.organizationId,
      currency: d.currency,
      amount: d.amountMinor,
      allocations: toJson(d.allocations),
      created_at: d.receivedAt,
    })
    .execute()
  let principal = 0n
  let closed = 0
  for (const a of d.allocations) {
    principal += BigInt(a.principalMinor)
    if (a.closesDraw) closed++
    await db
      .updateTable('liquidity_draws')
      .set({
        principal_repaid: sql`principal_repaid + ${a.principalMinor}::numeric`,
        fee_paid: sql`fee_paid + ${a.feeMinor}::numeric`,
        ...(a.closesDraw ? { status: 'REPAID' as const, repaid_at: d.receivedAt } : {}),
      })
      .where('id', '=', a.drawId)
      .execute()
  }
  await db
    .updateTable('liquidity_facilities')
    .set({
      borrowed: sql`borrowed - ${principal.toString()}::numeric`,
      open_draws: sql`open_draws - ${closed}::integer`,
      updated_at: d.receivedAt,
    })
    .where('organization_id', '=', d.organizationId)
    .execute()
}

async function failDraw(db: Kysely<ReadDatabase>, d: EventOf<'DrawFailed'>) {
  const failed = await db
    .updateTable('liquidity_draws')
    .set({ status: 'FAILED', failure_code: d.code, failure_reason: d.reason, failed_at: d.failedAt })
    .where('id', '=', d.drawId)
    .returning(['amount', 'principal_repaid'])
    .executeTakeFirst()
  if (!failed) throw new Error(`DrawFailed for draw ${d.drawId}, which has no row`)
  const outstanding = (BigInt(failed.amount) - BigInt(failed.principal_repaid)).toString()
  await db
    .updateTable('liquidity_facilities')
    .set({ borrowed: sql`borrowed - ${outstanding}::numeric`, open_draws: sql`open_draws - 1`, updated_at: d.failedAt })
    .where('organization_id', '=', d.organizationId)
    .execute()
}

export const liquidityFacilityProjector: Projector = {
  name: 'liquidity_facility',
  tables: ['liquidity_facilities', 'liquidity_draws', 'liquidity_repayments'],
  handles: new Set(['LiquidityFacilityConfigured', 'PayoutTreasurySet', 'DrawTaken', 'RepaymentReceived', 'DrawFailed']),
  async apply(db, recorded) {
    const event = parsedEvent<LiquidityFacilityEvent>(recorded)
    switch (event.type) {
      case 'LiquidityFacilityConfigured':
        return configure(db, event.data)
      case 'PayoutTreasurySet':
        return setTreasury(db, event.data)
      case 'DrawTaken':
        return takeDraw(db, event.data)
      case 'RepaymentReceived':
        return receiveRepayment(db, event.data)
      case 'DrawFailed':
        return failDraw(db, event.data)
    }
  },
}
