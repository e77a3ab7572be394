// The account aggregate's bounds.
export const ACCOUNT_LIMITS = {
  /**
   * Credit causes (deposit or fund-in references) an account remembers, so a replayed credit is a
   * no-op rather than a second credit. Older ones are forgotten first, 256 at a time
   * (domain/shared/recentEntries.ts): a reference reused after this many later credits credits again
   * (bounded state; see docs/decisions.md).
   */
  maxRememberedCredits: 10_000,
} as const
