// The liquidity facility's read-model tables (migration 0015), owned by projections/liquidityFacility.ts.
// Amounts are numeric minor units: the driver gives them back as strings, written as strings.
import type { RepaymentAllocation } from '../domain/liquidity-facility/events.js'
import type { Json, Timestamp } from './columnTypes.js'

export interface LiquidityFacilitiesTable {
  organization_id: string
  configured: boolean
  currency: string
  network: string
  credit_limit: string
  maximum_draw: string
  fee_bps_per_hour: string
  fee_cap_hours: number
  payout_treasury_id: string | null
  borrowed: string
  open_draws: number
  updated_at: Timestamp
}

export interface LiquidityDrawsTable {
  id: string
  organization_id: string
  currency: string
  amount: string
  principal_repaid: string
  fee_paid: string
  fee_bps_per_hour: string
  fee_cap_hours: number
  payout_treasury_id: string
  reference: string | null
  status: 'OPEN' | 'REPAID' | 'FAILED'
  drawn_at: Timestamp
  repaid_at: Timestamp | null
  /** Set when its payout treasury refused the credit (migration 0023). */
  failure_code: string | null
  failure_reason: string | null
  failed_at: Timestamp | null
}

export interface LiquidityRepaymentsTable {
  id: string
  organization_id: string
  currency: string
  amount: string
  allocations: Json<RepaymentAllocation[]>
  created_at: Timestamp
}

export interface LiquidityFacilityDatabase {
  liquidity_facilities: LiquidityFacilitiesTable
  liquidity_draws: LiquidityDrawsTable
  liquidity_repayments: LiquidityRepaymentsTable
}
