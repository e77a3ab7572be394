// Transfers holding money in suspense (IN_REVIEW with money held, not yet resolved), for the
// operator's `suspense list`: from the transfers read model's state, oldest hold first.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'

export const HELD_FUNDS_LIMITS = { maxListed: 1_000 } as const

export type HeldFundsRow = {
  transferId: string
  organizationId: string
  customerId: string
  stage: string
  code: string
  reason: string
  currency: string
  amountMinor: string
  heldAt: string
}

export async function listHeldFunds(db: Kysely<ReadDatabase>, filter: { organizationId?: string | undefined }, limit: number) {
  const { rows } = await sql<{
    id: string
    organization_id: string
    customer_id: string
    stage: string
    code: string
    reason: string
    currency: string
    amount: string
    held_at: string
  }>`
    SELECT id, organization_id, customer_id, state->'suspended'->>'stage' AS stage, state->'suspended'->>'code' AS code,
      state->'suspended'->>'reason' AS reason, state->'suspended'->'amount'->>'currency' AS currency,
      state->'suspended'->'amount'->>'amountMinor' AS amount, state->'suspended'->>'at' AS held_at
    FROM transfers
    WHERE status = 'IN_REVIEW' AND jsonb_typeof(state->'suspended') = 'object'
      AND jsonb_typeof(state->'suspended'->'resolution') IS DISTINCT FROM 'object'
      AND (${filter.organizationId ?? null}::text IS NULL OR organization_id = ${filter.organizationId ?? null})
    ORDER BY state->'suspended'->>'at', id
    LIMIT ${Math.min(limit, HELD_FUNDS_LIMITS.maxListed)}`.execute(db)
  return rows.map((r): HeldFundsRow => ({
    transferId: r.id,
    organizationId: r.organization_id,
    customerId: r.customer_id,
    stage: r.stage,
    code: r.code,
    reason: r.reason,
    currency: r.currency,
    amountMinor: r.amount,
    heldAt: r.held_at,
  }))
}
