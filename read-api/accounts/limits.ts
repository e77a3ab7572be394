// The named limits of the account read API (the page sizes are the shared list paging's:
// http/pagination/offsetShapedList.ts).

export const ACCOUNT_LIST_LIMITS = {
  /** Characters of one list parameter (a comma-separated currencyCodes, say). */
  listParamMaxLength: 2_000,
  /** Values of one list parameter, repeated and comma-separated together (there are 81 payment rails). */
  maxListValues: 100,
  /** The provider filter: as long as a provider the account events accept. */
  providerMaxLength: 40,
} as const

/** What `expand` may name on an account. */
export const ACCOUNT_EXPANSIONS = ['customer', 'sweepTargetAccount', 'counterparty'] as const
export type AccountExpansion = (typeof ACCOUNT_EXPANSIONS)[number]
