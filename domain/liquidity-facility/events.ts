// Events of the liquidity facility (one per organization), version 1. Amounts are integer minor
// units as strings (JSON has no BigInt); fee rates are exact decimal strings. A repayment carries
// its ledger transaction (world pays the credit line its principal and the fees account its fee),
// so `ledger verify` folds it with every other movement. A draw carries none here: its money
// reaches the payout treasury's balance (credit_line to the treasury's available funds) on the
// treasury account's stream, by the workflow that reacts to DrawTaken.
import { z } from 'zod'
import { ledgerTransactionSchema } from '../ledger/index.js'
import { LIQUIDITY_LIMITS } from './limits.js'

export const FACILITY_CURRENCIES = ['USDC', 'USDT'] as const
export const FACILITY_NETWORKS = ['SOLANA'] as const

const minorUnits = z.string().regex(/^(0|[1-9]\d{0,39})$/)
const feeTerms = {
  fundingFeeBpsPerHour: z.string().regex(/^(0|[1-9]\d*)(\.\d+)?$/),
  feeCapHours: z.number().int().min(1).max(LIQUIDITY_LIMITS.maxFeeCapHours),
}

export const LiquidityFacilityConfigured = z.object({
  facilityId: z.string(),
  organizationId: z.string(),
  currency: z.enum(FACILITY_CURRENCIES),
  network: z.enum(FACILITY_NETWORKS),
  creditLimitMinor: minorUnits,
  maximumDrawMinor: minorUnits,
  ...feeTerms,
  /** The operator who configured it (audit). */
  configuredBy: z.string().max(LIQUIDITY_LIMITS.configuredByMaxLength),
  configuredAt: z.string(),
})

export const PayoutTreasurySet = z.object({
  facilityId: z.string(),
  organizationId: z.string(),
  payoutTreasuryId: z.string(),
  setAt: z.string(),
})

export const DrawTaken = z.object({
  facilityId: z.string(),
  organizationId: z.string(),
  drawId: z.string(),
  currency: z.enum(FACILITY_CURRENCIES),
  network: z.enum(FACILITY_NETWORKS),
  amountMinor: minorUnits,
  /** Where the money goes: the payout treasury set when the draw was taken. */
  payoutTreasuryId: z.string(),
  reference: z.string().max(LIQUIDITY_LIMITS.referenceMaxLength).nullable(),
  /** The fee terms in force at the draw; they stay the draw's terms whatever is configured later. */
  ...feeTerms,
  drawnAt: z.string(),
})

export const repaymentAllocation = z.object({
  drawId: z.string(),
  feeMinor: minorUnits,
  principalMinor: minorUnits,
  /** True when this repayment paid the draw's last principal (and its fee due): the draw is REPAID. */
  closesDraw: z.boolean(),
})

export const RepaymentReceived = z.object({
  facilityId: z.string(),
  organizationId: z.string(),
  repaymentId: z.string(),
  currency: z.enum(FACILITY_CURRENCIES),
  amountMinor: minorUnits,
  /** Oldest draw first; each draw's fee due before its principal. */
  allocations: z.array(repaymentAllocation).min(1).max(LIQUIDITY_LIMITS.maxOpenDraws),
  transaction: ledgerTransactionSchema,
  receivedAt: z.string(),
})

/**
 * The draw's money could not reach its payout treasury (the treasury refused the credit: closed
 * meanwhile): the draw fails and is unwound, nothing borrowed. No ledger transaction: none was made.
 */
export const DrawFailed = z.object({
  facilityId: z.string(),
  organizationId: z.string(),
  drawId: z.string(),
  code: z.string().max(LIQUIDITY_LIMITS.failureCodeMaxLength),
  reason: z.string().max(LIQUIDITY_LIMITS.failureReasonMaxLength),
  failedAt: z.string(),
})

export const liquidityFacilityEventSchemas = {
  LiquidityFacilityConfigured,
  PayoutTreasurySet,
  DrawTaken,
  RepaymentReceived,
  DrawFailed,
} as const

type Schemas = typeof liquidityFacilityEventSchemas
export type LiquidityFacilityEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type RepaymentAllocation = z.infer<typeof repaymentAllocation>
export type FacilityCurrency = (typeof FACILITY_CURRENCIES)[number]
