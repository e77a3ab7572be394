// The liquidity facility (credit line) of one organization: the operator configures it, the
// organization sets its payout treasury, draws on it and repays. Every draw and repayment is
// decided on the facility's one stream, in turn, so concurrent draws never pass the limit.
//
// Draw refusals, in order: amount not positive (422 invalid_amount); above the amount bound of the
// facility's currency (422 amount_too_large, domain/shared/money/bounds.ts); never configured or a zero
// limit (409 credit_line_not_configured); no payout treasury (409 payout_treasury_not_set); the
// treasury no longer eligible (409 payout_treasury_not_eligible); above maximumDrawAmount (422
// draw_amount_too_large); above remainingCredit (422 credit_limit_exceeded); too many open draws
// (409 too_many_open_draws). A repayment above the amount bound (422 amount_too_large) or above what
// the open draws owe is refused whole (422 repayment_exceeds_outstanding): nothing is kept as a credit
// balance. The credit limit is itself at most the amount bound, so every draw is within it.
import type { Decider } from '../decider.js'
import { assertInvariant, conflict, invalid } from '../errors.js'
import { splitMovement, system } from '../ledger/index.js'
import { assertAmountsWithinBound, describeBound, maxAmountMinor } from '../shared/money/index.js'
import { allocateRepayment, totalOwed } from './allocateRepayment.js'
import type { FacilityCurrency, LiquidityFacilityEvent } from './events.js'
import { parseFeeBps } from './fee.js'
import { LIQUIDITY_LIMITS } from './limits.js'
import { type FacilityState, type OpenDraw, facilityIdOf, principalOutstanding, remainingCredit, unconfiguredFacility } from './state.js'

type Scoped = { organizationId: string; now: string }
export type LiquidityFacilityCommand =
  | (Scoped & {
      type: 'ConfigureCreditLine'
      currency: FacilityCurrency
      network: 'SOLANA'
      creditLimitMinor: bigint
      maximumDrawMinor: bigint
      fundingFeeBpsPerHour: string
      feeCapHours: number
      configuredBy: string
    })
  /** `eligibleTreasuryIds`: the organization's payout treasuries now (read model), a fact the route looks up. */
  | (Scoped & { type: 'SetPayoutTreasury'; payoutTreasuryId: string; eligibleTreasuryIds: readonly string[] })
  | (Scoped & {
      type: 'TakeDraw'
      drawId: string
      amountMinor: bigint
      reference: string | null
      eligibleTreasuryIds: readonly string[]
    })
  | (Scoped & { type: 'RepayDraws'; repaymentId: string; amountMinor: bigint })
  /** The draw's credit was refused by its payout treasury: it fails and is unwound (a draw no longer open: nothing). */
  | (Scoped & { type: 'FailDraw'; drawId: string; code: string; reason: string })

const money = (minor: bigint) => minor.toString()

function decideConfigure(c: Extract<LiquidityFacilityCommand, { type: 'ConfigureCreditLine' }>, s: FacilityState) {
  const problems: { field: string; message: string; value?: unknown }[] = []
  // The one amount bound of the currency (FACILITY_CURRENCIES are all in the currency table).
  const maxLimit = maxAmountMinor(c.currency) ?? 0n
  if (c.creditLimitMinor < 0n || c.creditLimitMinor > maxLimit)
    problems.push({
      field: 'creditLimit',
      message: `must be 0 to ${describeBound(c.currency, maxLimit)}`,
      value: money(c.creditLimitMinor),
    })
  if (c.maximumDrawMinor < 0n || c.maximumDrawMinor > c.creditLimitMinor)
    problems.push({ field: 'maximumDrawAmount', message: 'must be 0 to the credit limit', value: money(c.maximumDrawMinor) })
  if (parseFeeBps(c.fundingFeeBpsPerHour) === undefined)
    problems.push({
      field: 'fundingFeeBpsPerHour',
      message:
        `must be a decimal from 0 to ${LIQUIDITY_LIMITS.maxFeeBpsPerHour} ` +
        `with at most ${LIQUIDITY_LIMITS.feeBpsFractionDigits} places`,
      value: c.fundingFeeBpsPerHour,
    })
  if (!Number.isInteger(c.feeCapHours) || c.feeCapHours < 1 || c.feeCapHours > LIQUIDITY_LIMITS.maxFeeCapHours)
    problems.push({ field: 'feeCapHours', message: `must be a whole number of hours, 1 to ${LIQUIDITY_LIMITS.maxFeeCapHours}` })
  if (problems.length > 0) throw invalid('invalid_credit_line', 'The credit line terms are not valid', problems)
  if (c.currency !== s.currency && s.openDraws.length > 0)
    throw conflict('facility_has_open_draws', `The facility has open draws in ${s.currency}; repay them before changing its currency`)
  if (c.creditLimitMinor < s.borrowedMinor)
    throw conflict(
      'credit_limit_below_borrowed',
      `The facility has ${s.borrowedMinor} minor units borrowed; a limit of ${c.creditLimitMinor} would be below it`,
    )
  return [
    {
      type: 'LiquidityFacilityConfigured' as const,
      data: {
        facilityId: facilityIdOf(c.organizationId),
        organizationId: c.organizationId,
        currency: c.currency,
        network: c.network,
        creditLimitMinor: money(c.creditLimitMinor),
        maximumDrawMinor: money(c.maximumDrawMinor),
        fundingFeeBpsPerHour: c.fundingFeeBpsPerHour,
        feeCapHours: c.feeCapHours,
        configuredBy: c.configuredBy.slice(0, LIQUIDITY_LIMITS.configuredByMaxLength),
        configuredAt: c.now,
      },
    },
  ]
}

function treasuryNotEligible(id: string) {
  return conflict(
    'payout_treasury_not_eligible',
    `The payout treasury ${id} is no longer one of the organization's active Solana treasuries; set another one`,
  )
}

function decideDraw(c: Extract<LiquidityFacilityCommand, { type: 'TakeDraw' }>, s: FacilityState) {
  if (c.amountMinor <= 0n) throw invalid('invalid_amount', 'The amount must be positive', [{ field: 'amount', message: 'must be > 0' }])
  assertAmountsWithinBound([{ field: 'amount', money: { currency: s.currency, amountMinor: c.amountMinor } }])
  if (!s.configured || s.creditLimitMinor === 0n)
    throw conflict('credit_line_not_configured', 'The organization has no credit line: it is configured by the operator')
  if (s.payoutTreasuryId === null)
    throw conflict('payout_treasury_not_set', 'Set the payout treasury (PATCH /v1/liquidity/facility) before drawing')
  if (!c.eligibleTreasuryIds.includes(s.payoutTreasuryId)) throw treasuryNotEligible(s.payoutTreasuryId)
  if (c.amountMinor > s.maximumDrawMinor)
    throw invalid('draw_amount_too_large', `A draw may be at most ${s.maximumDrawMinor} minor units`, [
      { field: 'amount', message: 'must not exceed maximumDrawAmount', value: money(s.maximumDrawMinor) },
    ])
  if (c.amountMinor > remainingCredit(s))
    throw invalid('credit_limit_exceeded', `The draw exceeds the remaining credit of ${remainingCredit(s)} minor units`, [
      { field: 'amount', message: 'must not exceed remainingCredit', value: money(remainingCredit(s)) },
    ])
  if (s.openDraws.length >= LIQUIDITY_LIMITS.maxOpenDraws)
    throw conflict('too_many_open_draws', `At most ${LIQUIDITY_LIMITS.maxOpenDraws} draws may be open at once; repay some first`)
  return [
    {
      type: 'DrawTaken' as const,
      data: {
        facilityId: facilityIdOf(c.organizationId),
        organizationId: c.organizationId,
        drawId: c.drawId,
        currency: s.currency,
        network: s.network,
        amountMinor: money(c.amountMinor),
        payoutTreasuryId: s.payoutTreasuryId,
        reference: c.reference,
        fundingFeeBpsPerHour: s.terms.fundingFeeBpsPerHour,
        feeCapHours: s.terms.feeCapHours,
        drawnAt: c.now,
      },
    },
  ]
}

function decideRepay(c: Extract<LiquidityFacilityCommand, { type: 'RepayDraws' }>, s: FacilityState) {
  if (c.amountMinor <= 0n) throw invalid('invalid_amount', 'The amount must be positive', [{ field: 'amount', message: 'must be > 0' }])
  assertAmountsWithinBound([{ field: 'amount', money: { currency: s.currency, amountMinor: c.amountMinor } }])
  const owed = totalOwed(s.openDraws, c.now)
  if (c.amountMinor > owed)
    throw invalid('repayment_exceeds_outstanding', `The open draws owe ${owed} minor units (fees included) now; repay at most that`, [
      { field: 'amount', message: 'must not exceed what the open draws owe (principal and fees due)', value: money(owed) },
    ])
  const allocations = allocateRepayment(s.openDraws, c.amountMinor, c.now)
  const sum = (key: 'feeMinor' | 'principalMinor') => allocations.reduce((total, a) => total + BigInt(a[key]), 0n)
  const transaction = splitMovement({
    id: `repayment:${c.repaymentId}`,
    kind: 'REPAYMENT',
    currency: s.currency,
    from: system('world'),
    legs: [
      { to: system('credit_line'), amountMinor: sum('principalMinor') },
      { to: system('fees'), amountMinor: sum('feeMinor') },
    ],
    description: `Credit line repayment ${c.repaymentId}`,
  })
  return [
    {
      type: 'RepaymentReceived' as const,
      data: {
        facilityId: facilityIdOf(c.organizationId),
        organizationId: c.organizationId,
        repaymentId: c.repaymentId,
        currency: s.currency,
        amountMinor: money(c.amountMinor),
        allocations,
        transaction,
        receivedAt: c.now,
      },
    },
  ]
}

function repaid(draw: OpenDraw, feeMinor: bigint, principalMinor: bigint): OpenDraw {
  return { ...draw, feePaidMinor: draw.feePaidMinor + feeMinor, principalRepaidMinor: draw.principalRepaidMinor + principalMinor }
}

function evolve(s: FacilityState, event: LiquidityFacilityEvent): FacilityState {
  switch (event.type) {
    case 'LiquidityFacilityConfigured': {
      const d = event.data
      return {
        ...s,
        facilityId: d.facilityId,
        configured: true,
        currency: d.currency,
        network: d.network,
        creditLimitMinor: BigInt(d.creditLimitMinor),
        maximumDrawMinor: BigInt(d.maximumDrawMinor),
        terms: { fundingFeeBpsPerHour: d.fundingFeeBpsPerHour, feeCapHours: d.feeCapHours },
      }
    }
    case 'PayoutTreasurySet':
      return { ...s, facilityId: event.data.facilityId, payoutTreasuryId: event.data.payoutTreasuryId }
    case 'DrawTaken': {
      const d = event.data
      const draw: OpenDraw = {
        drawId: d.drawId,
        principalMinor: BigInt(d.amountMinor),
        principalRepaidMinor: 0n,
        feePaidMinor: 0n,
        terms: { fundingFeeBpsPerHour: d.fundingFeeBpsPerHour, feeCapHours: d.feeCapHours },
        payoutTreasuryId: d.payoutTreasuryId,
        reference: d.reference,
        drawnAt: d.drawnAt,
      }
      return { ...s, borrowedMinor: s.borrowedMinor + draw.principalMinor, openDraws: [...s.openDraws, draw] }
    }
    case 'DrawFailed': {
      const draw = s.openDraws.find((d) => d.drawId === event.data.drawId)
      assertInvariant(draw, `draw ${event.data.drawId} failed while not open`)
      return {
        ...s,
        borrowedMinor: s.borrowedMinor - principalOutstanding(draw),
        openDraws: s.openDraws.filter((d) => d !== draw),
      }
    }
    case 'RepaymentReceived': {
      const byDraw = new Map(event.data.allocations.map((a) => [a.drawId, a]))
      let principalPaid = 0n
      const openDraws: OpenDraw[] = []
      for (const draw of s.openDraws) {
        const a = byDraw.get(draw.drawId)
        if (!a) {
          openDraws.push(draw)
          continue
        }
        principalPaid += BigInt(a.principalMinor)
        const next = repaid(draw, BigInt(a.feeMinor), BigInt(a.principalMinor))
        assertInvariant(principalOutstanding(next) >= 0n, `draw ${draw.drawId} repaid beyond its principal`)
        assertInvariant(a.closesDraw === (principalOutstanding(next) === 0n), `draw ${draw.drawId} closed with principal outstanding`)
        if (!a.closesDraw) openDraws.push(next)
      }
      assertInvariant(byDraw.size === event.data.allocations.length, 'a repayment allocates to one draw twice')
      return { ...s, borrowedMinor: s.borrowedMinor - principalPaid, openDraws }
    }
  }
}

export const liquidityFacilityDecider: Decider<FacilityState, LiquidityFacilityCommand, LiquidityFacilityEvent> = {
  initialState: unconfiguredFacility,

  decide(command, state) {
    switch (command.type) {
      case 'ConfigureCreditLine':
        return decideConfigure(command, state)
      case 'SetPayoutTreasury':
        if (!command.eligibleTreasuryIds.includes(command.payoutTreasuryId))
          throw invalid('payout_treasury_not_eligible', "payoutTreasuryId must be one of the facility's payoutTreasuries", [
            {
              field: 'body.payoutTreasuryId',
              message: "must be one of payoutTreasuries (the organization's active Solana internal wallets)",
              value: command.payoutTreasuryId,
            },
          ])
        // Setting the treasury it already has changes nothing.
        if (state.payoutTreasuryId === command.payoutTreasuryId) return []
        return [
          {
            type: 'PayoutTreasurySet',
            data: {
              facilityId: facilityIdOf(command.organizationId),
              organizationId: command.organizationId,
              payoutTreasuryId: command.payoutTreasuryId,
              setAt: command.now,
            },
          },
        ]
      case 'TakeDraw':
        return decideDraw(command, state)
      case 'RepayDraws':
        return decideRepay(command, state)
      case 'FailDraw':
        // A draw repaid meanwhile, or failed already, has nothing left to unwind.
        if (!state.openDraws.some((d) => d.drawId === command.drawId)) return []
        return [
          {
            type: 'DrawFailed',
            data: {
              facilityId: facilityIdOf(command.organizationId),
              organizationId: command.organizationId,
              drawId: command.drawId,
              code: command.code.slice(0, LIQUIDITY_LIMITS.failureCodeMaxLength),
              reason: command.reason.slice(0, LIQUIDITY_LIMITS.failureReasonMaxLength),
              failedAt: command.now,
            },
          },
        ]
    }
  },

  evolve(state, event) {
    const next = evolve(state, event)
    // The credit line's invariants, on every event: nothing borrowed below zero or above the limit,
    // and borrowed is exactly the principal outstanding on open draws.
    assertInvariant(next.borrowedMinor >= 0n, `borrowed below zero on ${next.facilityId}`)
    assertInvariant(next.borrowedMinor <= next.creditLimitMinor, `borrowed above the credit limit on ${next.facilityId}`)
    assertInvariant(
      next.openDraws.reduce((sum, d) => sum + principalOutstanding(d), 0n) === next.borrowedMinor,
      `borrowed differs from the open draws on ${next.facilityId}`,
    )
    return next
  },
}
