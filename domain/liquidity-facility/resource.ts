// The liquidity facility, its draws and its repayments as the API shows them, and the request
// shapes that change them: one source for validation, types and the OpenAPI document. Amounts of
// the credit line (creditLimit, remainingCredit, borrowedAmount, maximumDrawAmount) are integer
// minor units of the facility's currency as strings, like every REST amount of the spec; draws and
// repayments show money objects ({ currency, exponent, value, displayValue }).
import { z } from 'zod'
import { moneyWire, toWire, withAmountBound } from '../shared/money/index.js'
import { FACILITY_CURRENCIES, FACILITY_NETWORKS, type FacilityCurrency, type RepaymentAllocation } from './events.js'
import { type FeeTerms, accruedFee, startedHours } from './fee.js'
import { HOUR_MS, LIQUIDITY_LIMITS } from './limits.js'

const minorAmount = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,29}$/, 'a positive integer of minor units, as a string')
    .describe(
      withAmountBound(`${what}: a positive integer of minor units of the facility's currency, as a string ("2500000" is 2.50 USDC)`),
    )

export const minorUnitsText = (description: string) =>
  z.string().regex(/^\d+$/).describe(`${description}, in integer minor units of the facility's currency, as a string`)

// ---- Requests ---------------------------------------------------------------------------------
export const updateFacilityBody = z.object({
  payoutTreasuryId: z
    .string()
    .max(64)
    .describe('The Solana payout treasury that receives credit draws: one of payoutTreasuries (else 422 payout_treasury_not_eligible)'),
})

export const createDrawBody = z.object({
  amount: minorAmount('The amount to draw, at most maximumDrawAmount and remainingCredit'),
  reference: z.string().min(1).max(LIQUIDITY_LIMITS.referenceMaxLength).optional().describe('Your own reference for the draw, shown on it'),
})

export const createRepaymentBody = z.object({
  amount: minorAmount(
    'The amount repaid, at most what the open draws owe now (principal and fees due); applied oldest draw first, fee before principal',
  ),
})

const feeBpsInput = z
  .union([z.string().regex(/^(0|[1-9]\d*)(\.\d+)?$/), z.number().nonnegative()])
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .describe('Funding fee per started hour in basis points, a decimal such as 1.5 (at most 4 places), read exactly')

export const configureCreditLineBody = z.object({
  creditLimit: z
    .string()
    .regex(/^\d{1,30}$/)
    .describe(withAmountBound('The credit limit, in integer minor units as a string (0 closes the line to new draws)')),
  maximumDrawAmount: z
    .string()
    .regex(/^\d{1,30}$/)
    .describe(withAmountBound('The largest single draw, in integer minor units as a string, at most the credit limit')),
  fundingFeeBpsPerHour: feeBpsInput,
  feeCapHours: z.number().int().describe(`Hours after which the fee stops accruing, 1 to ${LIQUIDITY_LIMITS.maxFeeCapHours}`),
  currency: z.enum(FACILITY_CURRENCIES).default('USDC').describe('The stablecoin lent: USDC (default) or USDT'),
})

// ---- The facility ------------------------------------------------------------------------------
export const payoutTreasury = z.object({
  id: z.string().describe('Internal wallet id, prefix inw_'),
  name: z.string().describe("The account's metadata nickname, else its id"),
})
export type PayoutTreasury = z.infer<typeof payoutTreasury>

export const liquidityFacilityResource = z.object({
  currency: z.enum(FACILITY_CURRENCIES).describe('The stablecoin the facility lends'),
  network: z.enum(FACILITY_NETWORKS).describe('The chain it is lent on'),
  creditLine: z.object({
    creditLimit: minorUnitsText('The credit limit (0 for an organization whose line was never configured)'),
    remainingCredit: minorUnitsText('What may still be drawn: creditLimit - borrowedAmount'),
    borrowedAmount: minorUnitsText('Principal drawn and not yet repaid (fees not included)'),
    transactionsOpen: z.number().int().describe('Draws not yet repaid'),
    maximumDrawAmount: minorUnitsText('The largest single draw'),
    fundingFeeBpsPerHour: z.number().describe('Funding fee per started hour, in basis points of the principal drawn (1.5 is 0.015%)'),
    feeCapHours: z.number().int().describe('The fee accrues for at most this many hours per draw'),
    asOf: z.string().describe('When these figures were read (ISO 8601)'),
  }),
  payoutTreasuryId: z.string().nullable().describe('The Solana payout treasury that receives draws; null when none is set'),
  payoutTreasuries: z
    .array(payoutTreasury)
    .describe("The organization's own active Solana internal wallets (no customer): the treasuries a draw may be paid to"),
})
export type LiquidityFacilityResource = z.infer<typeof liquidityFacilityResource>

/** What the facility record is built from (the write side's state or the read model's row). */
export type FacilityView = {
  currency: FacilityCurrency
  network: 'SOLANA'
  creditLimitMinor: bigint
  borrowedMinor: bigint
  openDraws: number
  maximumDrawMinor: bigint
  terms: FeeTerms
  payoutTreasuryId: string | null
}

export function toFacilityResource(view: FacilityView, treasuries: PayoutTreasury[], asOf: string): LiquidityFacilityResource {
  return {
    currency: view.currency,
    network: view.network,
    creditLine: {
      creditLimit: view.creditLimitMinor.toString(),
      remainingCredit: (view.creditLimitMinor - view.borrowedMinor).toString(),
      borrowedAmount: view.borrowedMinor.toString(),
      transactionsOpen: view.openDraws,
      maximumDrawAmount: view.maximumDrawMinor.toString(),
      // Output only: a decimal of at most 4 places and 5 digits before the point prints back exactly.
      fundingFeeBpsPerHour: Number(view.terms.fundingFeeBpsPerHour),
      feeCapHours: view.terms.feeCapHours,
      asOf,
    },
    payoutTreasuryId: view.payoutTreasuryId,
    payoutTreasuries: treasuries,
  }
}

// ---- Draws -------------------------------------------------------------------------------------
export const DRAW_STATUSES = ['OPEN', 'REPAID', 'FAILED'] as const

export const drawResource = z.object({
  id: z.string().describe('Draw id, prefix drw_'),
  status: z
    .enum(DRAW_STATUSES)
    .describe(
      'OPEN until its principal is repaid in full (its fee due is paid first), then REPAID; FAILED when its payout treasury ' +
        'refused the money (closed meanwhile): the draw is unwound, nothing is owed',
    ),
  amount: moneyWire.describe('The principal drawn'),
  principalRepaid: moneyWire.describe('Principal repaid so far'),
  principalOutstanding: moneyWire.describe('Principal still owed'),
  feeAccrued: moneyWire.describe(
    'Funding fee accrued at the time of the response: principal x fundingFeeBpsPerHour / 10 000 x min(started hours, ' +
      'feeCapHours), rounded half up to the minor unit; final once REPAID',
  ),
  feePaid: moneyWire.describe('Fee paid so far'),
  feeDue: moneyWire.describe('feeAccrued - feePaid: what a repayment now pays for this draw before its principal'),
  fundingFeeBpsPerHour: z.number().describe("The fee rate in force when the draw was taken (it stays the draw's rate)"),
  feeCapHours: z.number().int().describe('The fee cap in force when the draw was taken'),
  payoutTreasuryId: z.string().describe('The treasury the draw was paid to'),
  reference: z.string().nullable().describe('Your reference, or null'),
  drawnAt: z.string().describe('When the draw was taken (ISO 8601); its fee hours count from here'),
  repaidAt: z.string().nullable().describe('When the last principal was repaid; null while OPEN'),
  failure: z
    .object({ code: z.string(), message: z.string(), failedAt: z.string() })
    .nullable()
    .describe('Why and when a FAILED draw failed; null otherwise'),
  feeNextAccruesAt: z
    .string()
    .nullable()
    .describe(
      'feeAccrued holds up to this instant; just after it the next started hour adds to it. Null once the fee is capped or the ' +
        'draw REPAID',
    ),
})
export type DrawResource = z.infer<typeof drawResource>

export type DrawView = {
  id: string
  currency: string
  principalMinor: bigint
  principalRepaidMinor: bigint
  feePaidMinor: bigint
  terms: FeeTerms
  payoutTreasuryId: string
  reference: string | null
  drawnAt: string
  repaidAt: string | null
  /** Its payout treasury refused the credit: unwound. */
  failure: { code: string; reason: string; at: string } | null
}

export function toDrawResource(view: DrawView, asOf: string): DrawResource {
  const m = (minor: bigint) => toWire({ currency: view.currency, amountMinor: minor })
  // A failed draw never reached its treasury: it accrues no fee and nothing of it is owed.
  const open = view.repaidAt === null && view.failure === null
  const accrued = open ? accruedFee(view, asOf) : view.feePaidMinor
  const feeAccrued = accrued > view.feePaidMinor ? accrued : view.feePaidMinor
  return {
    id: view.id,
    status: view.failure !== null ? 'FAILED' : view.repaidAt === null ? 'OPEN' : 'REPAID',
    amount: m(view.principalMinor),
    principalRepaid: m(view.principalRepaidMinor),
    principalOutstanding: m(view.failure === null ? view.principalMinor - view.principalRepaidMinor : 0n),
    feeAccrued: m(feeAccrued),
    feePaid: m(view.feePaidMinor),
    feeDue: m(feeAccrued - view.feePaidMinor),
    fundingFeeBpsPerHour: Number(view.terms.fundingFeeBpsPerHour),
    feeCapHours: view.terms.feeCapHours,
    payoutTreasuryId: view.payoutTreasuryId,
    reference: view.reference,
    drawnAt: view.drawnAt,
    repaidAt: view.repaidAt,
    failure: view.failure && { code: view.failure.code, message: view.failure.reason, failedAt: view.failure.at },
    feeNextAccruesAt: open ? nextAccrual(view, asOf) : null,
  }
}

/** The instant the started hour after `asOf` begins, unless the fee is capped by then. */
function nextAccrual(view: Pick<DrawView, 'drawnAt' | 'terms'>, asOf: string): string | null {
  const hours = startedHours(view.drawnAt, asOf)
  if (hours >= view.terms.feeCapHours) return null
  return new Date(Date.parse(view.drawnAt) + hours * HOUR_MS).toISOString()
}

// ---- Repayments --------------------------------------------------------------------------------
export const repaymentResource = z.object({
  id: z.string().describe('Repayment id, prefix rpy_'),
  amount: moneyWire.describe('The amount repaid'),
  feePaid: moneyWire.describe('The part that paid funding fees'),
  principalPaid: moneyWire.describe('The part that paid principal'),
  draws: z
    .array(
      z.object({
        drawId: z.string().describe('The draw paid, prefix drw_'),
        fee: moneyWire.describe('Fee of this draw paid by the repayment'),
        principal: moneyWire.describe('Principal of this draw paid by the repayment'),
        drawStatus: z.enum(DRAW_STATUSES).describe('REPAID when this repayment closed the draw'),
      }),
    )
    .describe("Where the repayment went: oldest draw first, each draw's fee due before its principal"),
  createdAt: z.string().describe('When the repayment was received (ISO 8601); the fees it paid were accrued to this instant'),
})
export type RepaymentResource = z.infer<typeof repaymentResource>

export function toRepaymentResource(r: {
  repaymentId: string
  currency: string
  amountMinor: string
  allocations: readonly RepaymentAllocation[]
  receivedAt: string
}): RepaymentResource {
  const m = (minor: bigint) => toWire({ currency: r.currency, amountMinor: minor })
  const sum = (key: 'feeMinor' | 'principalMinor') => r.allocations.reduce((total, a) => total + BigInt(a[key]), 0n)
  return {
    id: r.repaymentId,
    amount: m(BigInt(r.amountMinor)),
    feePaid: m(sum('feeMinor')),
    principalPaid: m(sum('principalMinor')),
    draws: r.allocations.map((a) => ({
      drawId: a.drawId,
      fee: m(BigInt(a.feeMinor)),
      principal: m(BigInt(a.principalMinor)),
      drawStatus: a.closesDraw ? 'REPAID' : 'OPEN',
    })),
    createdAt: r.receivedAt,
  }
}
