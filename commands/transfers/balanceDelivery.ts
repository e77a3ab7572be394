// A transfer's delivery into its balance destination, the balance credit leg: the source's hold
// settled into transit (a balance-funded transfer: clearing in one currency, the world when
// converting), the destination credited from there (a deposit: from the world, or the sandbox's
// mint), then the leg and the transfer completed. A credit the destination refuses (closed, over
// its ceiling) is an outcome, not a failure: the money goes to suspense and the transfer IN_REVIEW
// (heldFunds.ts). Every step's command id is the transfer's, so whoever runs it first (the transfer
// workflow, the operator's advance, a fixed route's sweep) does it, and the others find it done.
import { TRANSFER_CREDIT_PREFIX } from '../../domain/account/creditCause.js'
import { DomainError } from '../../domain/errors.js'
import { type OpenTransferState, transferDecider } from '../../domain/transfer/decider.js'
import { awaitingBalanceCredit, deliverySource, transitOf } from '../../domain/transfer/moneyInTransit.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { creditFunds, settleHold } from '../accounts/funds.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import { crashPoint } from '../runtime/crashPoints.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { suspendFunds } from './heldFunds.js'

type Runtime = Pick<CommandRuntime, 'handle'>

const withId = (origin: CommandOrigin, commandId: string): CommandOrigin => ({ ...origin, commandId })

/** The source's hold, settled into transit less the developer fee (once: a second settle is hold_closed). */
export async function settleSource(runtime: Runtime, s: OpenTransferState, origin: CommandOrigin): Promise<void> {
  const funding = s.funding
  if (funding?.method !== 'BALANCE' || !funding.accountId) return
  const { transferId, organizationId } = s.created
  crashPoint('transfer-settle-next')
  try {
    await settleHold(
      runtime,
      {
        organizationId,
        accountId: funding.accountId,
        holdId: transferId,
        feeMinor: BigInt(s.created.fee.amountMinor),
        to: transitOf(s),
      },
      withId(origin, `transfer-settle:${transferId}`),
    )
  } catch (error) {
    // Settled by an earlier run whose command id fell behind a snapshot; or no such hold (nothing to settle).
    if (!(error instanceof DomainError && (error.code === 'hold_closed' || error.kind === 'not_found'))) throw error
  }
  crashPoint('transfer-settled')
}

/** Delivers a transfer waiting for its balance credit; the position of the last event it appended, if any. */
export async function deliverToBalance(runtime: Runtime, s: OpenTransferState, origin: CommandOrigin): Promise<Position | undefined> {
  const destination = s.created.destination
  if (destination.kind !== 'BALANCE' || !destination.accountId) return undefined
  if (!awaitingBalanceCredit(s)) return undefined
  const { transferId, organizationId } = s.created
  await settleSource(runtime, s, origin)
  const source = deliverySource(s)
  let position: Position | undefined
  try {
    const credited = await creditFunds(
      runtime,
      {
        organizationId,
        accountId: destination.accountId,
        currency: destination.currency,
        amountMinor: BigInt(s.created.destinationAmount.amountMinor),
        cause: `${TRANSFER_CREDIT_PREFIX}${transferId}`,
        source,
      },
      withId(origin, `transfer-deliver:${transferId}`),
    )
    position = credited.position ?? credited.repeatedAt
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const held = await suspendFunds(runtime, s, { stage: 'DELIVERY', from: source, refusal: error }, origin)
    return held ?? position
  }
  crashPoint('transfer-delivered')
  const completed = await runtime.handle(
    transferDecider,
    streams.transfer(transferId),
    { type: 'CompleteDelivery', organizationId, transferId, now: new Date().toISOString() },
    withId(origin, `transfer-delivery-complete:${transferId}`),
  )
  return completed.position ?? completed.repeatedAt ?? position
}
