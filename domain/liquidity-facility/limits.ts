// Every bound of the liquidity facility, with its unit and its reason. Amounts (the credit limit, a
// draw, a repayment) have the one amount bound of their currency (domain/shared/money/bounds.ts).

export const LIQUIDITY_LIMITS = {
  /** Funding fee per hour, in basis points: 10 000 bps (100%) an hour is beyond any real facility. */
  maxFeeBpsPerHour: 10_000n,
  /** Fraction digits of fundingFeeBpsPerHour ("1.5", "0.0125"): parsed exactly, never as a float. */
  feeBpsFractionDigits: 4,
  /** Longest fee cap, in hours: one leap year. */
  maxFeeCapHours: 8_784,
  /** Open draws at once: each is repaid oldest first, so the state a repayment folds stays small. */
  maxOpenDraws: 1_000,
  /** A draw's free-text reference (the caller's own id for it). */
  referenceMaxLength: 128,
  /** Who configured the credit line, as the audit event records it. */
  configuredByMaxLength: 128,
  /** Payout treasuries an organization may choose from (its Solana internal wallets); a list beyond it is cut. */
  maxPayoutTreasuries: 1_000,
  /** Why a draw failed: a code, and the refusal's text (cut to this). */
  failureCodeMaxLength: 64,
  failureReasonMaxLength: 500,
} as const

/** The fee accrues per started hour. */
export const HOUR_MS = 60 * 60 * 1000
