// The named limits of the transfer read API (page sizes and the offset bound are the shared list
// paging's: http/pagination/offsetOrCursor.ts and offsetPage.ts).
import { TRANSFER_EVENT_LIMITS } from '../../domain/transfer/events.js'

export const TRANSFER_LIST_LIMITS = {
  /** clientReferenceId is matched exactly and is at most this long (spec), as the events keep it. */
  clientReferenceIdMaxLength: TRANSFER_EVENT_LIMITS.referenceMaxLength,
  /** Characters of the expand parameter, repeated and comma-separated together. */
  expandMaxLength: 200,
  /** Values of expand (there are five; repeats count once). */
  maxExpandValues: 10,
} as const

/** What `expand` may name on a transfer. */
export const TRANSFER_EXPANSIONS = ['sourceAccount', 'destinationAccount', 'sourceCustomer', 'counterparty', 'documents'] as const
export type TransferExpansion = (typeof TRANSFER_EXPANSIONS)[number]

/** The agent approval states the agentApprovalStatus filter takes (the spec's and EXPIRED). */
export { AGENT_APPROVAL_STATUSES } from '../../domain/transfer/events.js'
