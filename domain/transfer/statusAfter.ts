// The status each transfer event leaves the transfer in: one table that evolve (decider.ts) takes the
// status from and the public events (publicEvents.ts) name, so the two cannot tell different stories.
import { assertInvariant } from '../errors.js'
import type { TransferEvent } from './events.js'
import type { TransferStatus } from './statuses.js'

export type StatusAfter =
  /** The event puts the transfer in this status. */
  | { readonly moves: TransferStatus }
  /** The event's `data.status` names it (a transfer is created, or submitted, into one of two). */
  | { readonly named: true }
  /** The status stays as it was; decide emits the event only in this one, which its public event names. */
  | { readonly keeps: TransferStatus }

/** The events whose data names the status they leave. */
type Naming = Extract<TransferEvent, { data: { status: string } }>['type']

export const STATUS_AFTER: {
  readonly [Type in TransferEvent['type']]: Type extends Naming ? StatusAfter : Exclude<StatusAfter, { named: true }>
} = {
  TransferCreated: { named: true },
  TransferSubmitted: { named: true },
  TransferAgentApprovalDecided: { named: true },
  TransferFunded: { moves: 'PROCESSING' },
  // The rails engine starts and completes legs only while the transfer is PROCESSING (decider.ts decideAdvance).
  TransferLegStarted: { keeps: 'PROCESSING' },
  TransferLegCompleted: { keeps: 'PROCESSING' },
  TransferHeldForReview: { moves: 'IN_REVIEW' },
  TransferReviewCleared: { moves: 'PROCESSING' },
  TransferFundsSuspended: { moves: 'IN_REVIEW' },
  TransferSuspenseResolved: { moves: 'REVERSED' },
  TransferCompleted: { moves: 'COMPLETED' },
  TransferFailed: { moves: 'FAILED' },
  TransferCancelled: { moves: 'CANCELLED' },
  TransferReversed: { moves: 'REVERSED' },
  // A refund follows a reversal (an in-review transfer is reversed in the same decision), and the
  // refund settles while the transfer stays REVERSED.
  TransferRefundInitiated: { keeps: 'REVERSED' },
  TransferRefundCompleted: { keeps: 'REVERSED' },
}

/** The status after `event`, from the one before it ('none' before TransferCreated): evolve's. */
export function statusAfter(event: TransferEvent, before: TransferStatus | 'none'): TransferStatus {
  const after: StatusAfter = STATUS_AFTER[event.type]
  if ('moves' in after) return after.moves
  if ('named' in after) {
    assertInvariant('status' in event.data, `${event.type} names no status`)
    return event.data.status
  }
  assertInvariant(before !== 'none', `${event.type} before TransferCreated`)
  return before
}

/** The status a transfer event's public event names: the one the event leaves the transfer in. */
export function publicStatusOf(event: TransferEvent): TransferStatus {
  const after: StatusAfter = STATUS_AFTER[event.type]
  return 'keeps' in after ? after.keeps : statusAfter(event, 'none')
}
