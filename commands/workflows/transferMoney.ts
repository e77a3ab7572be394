// A transfer's money on the balance accounts, following its events (design.md: a workflow is a
// sequence of single-stream commands with deterministic ids):
//   submitted, paid from a balance  → hold the source balance and fund the transfer (balanceFunding.ts:
//                                      what the route already did, so normally nothing; after a crash, the rest)
//   balance credit leg started, or  → deliver (balanceDelivery.ts): settle the source's hold into transit, credit
//   a review of a refused one cleared  the destination, complete the leg; a refused credit holds the money in suspense
//   completed                        → settle the hold of a payout (the developer fee to the fees account, the rest
//                                      out to the world)
//   failed or cancelled              → release any hold placed for it
//   reversed                         → before completion: release the hold; after: credit the money back to the
//                                      balance it came from (or the source's refund account); refused: suspense
//   held money resolved to an account → credit it from suspense; refused: held again
// A refusal of the domain is an outcome here (the transfer IN_REVIEW, its money in suspense), never a
// failure that stops the consumer. Every command id is derived from the transfer, so a replay or a
// crash between two steps repeats nothing: a step already done is a no-op, the next one runs.
import { TRANSFER_RETURN_PREFIX } from '../../domain/account/creditCause.js'
import { DomainError } from '../../domain/errors.js'
import { type OpenTransferState, transferDecider } from '../../domain/transfer/decider.js'
import type { TransferCreatedData } from '../../domain/transfer/events.js'
import { awaitingBalanceCredit, returnAmount, transitOf } from '../../domain/transfer/moneyInTransit.js'
import type { Position } from '../../events/store/port.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { streams } from '../../events/streams.js'
import { creditFunds } from '../accounts/funds.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { deliverToBalance, settleSource } from '../transfers/balanceDelivery.js'
import { failUnfunded, fundFromBalance, releaseHeld } from '../transfers/balanceFunding.js'
import { creditResolution, suspendFunds } from '../transfers/heldFunds.js'
import type { Workflow } from './workflow.js'

type Runtime = Commands

const withId = (origin: CommandOrigin, commandId: string): CommandOrigin => ({ ...origin, commandId })

async function fundIfAwaiting(runtime: Runtime, s: OpenTransferState, origin: CommandOrigin): Promise<void> {
  const { transferId, organizationId } = s.created
  if (s.status !== 'PENDING' || s.created.funding !== 'BALANCE' || s.funding || s.created.sandboxTrigger === 'FAIL_BEFORE_FUNDING') return
  const accountId = s.created.source.accountId
  if (!accountId)
    return failUnfunded(
      runtime,
      organizationId,
      transferId,
      'The transfer names no source balance account',
      origin,
      'source_account_unavailable',
    ).then(() => undefined)
  const result = await fundFromBalance(
    runtime,
    {
      organizationId,
      transferId,
      accountId,
      currency: s.created.sourceAmount.currency,
      amountMinor: BigInt(s.created.sourceAmount.amountMinor),
      fundingCustomerId: s.created.customerId,
      note: null,
    },
    origin,
  ).catch((error: unknown) => {
    // The source account cannot hold (closed, not active, not found, too many holds): the transfer fails before funds.
    if (error instanceof DomainError) return { outcome: 'unavailable' as const, error }
    throw error
  })
  if (result.outcome === 'insufficient') await failUnfunded(runtime, organizationId, transferId, result.error.message, origin)
  if (result.outcome === 'unavailable')
    await failUnfunded(runtime, organizationId, transferId, result.error.message, origin, 'source_account_unavailable')
}

/** The hold placed for the transfer (its source balance, or the balance that funded it), released. */
async function release(runtime: Runtime, s: OpenTransferState, origin: CommandOrigin): Promise<void> {
  const accountId = s.funding?.accountId ?? s.created.source.accountId
  if (!accountId) return
  await releaseHeld(
    runtime,
    { organizationId: s.created.organizationId, accountId },
    s.created.transferId,
    withId(origin, `transfer-release:${s.created.transferId}`),
  )
}

async function returnFunds(runtime: Runtime, s: OpenTransferState, origin: CommandOrigin): Promise<void> {
  const completed = s.legs.at(-1)?.status === 'COMPLETED'
  if (!completed) {
    if (s.funding?.method === 'BALANCE') await release(runtime, s, origin)
    return
  }
  const to = s.returnedToAccountId
  if (!to) return
  const { transferId, organizationId } = s.created
  // The money comes back through where it went: clearing when it was reclaimed from a balance in one
  // currency, else the world (a payout's rail returned it).
  const from = transitOf(s)
  try {
    await creditFunds(
      runtime,
      { organizationId, accountId: to, ...returnAmount(s), cause: `${TRANSFER_RETURN_PREFIX}${transferId}`, source: from },
      withId(origin, `transfer-return:${transferId}`),
    )
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    await suspendFunds(runtime, s, { stage: 'RETURN', from, refusal: error }, origin)
  }
}

export const transferMoney: Workflow = {
  name: 'transfer_money',
  handles: new Set([
    'TransferCreated',
    'TransferSubmitted',
    'TransferAgentApprovalDecided',
    'TransferLegStarted',
    'TransferReviewCleared',
    'TransferCompleted',
    'TransferFailed',
    'TransferCancelled',
    'TransferReversed',
    'TransferSuspenseResolved',
  ]),
  commandsFor(event) {
    const transferId = String(event.data.transferId)
    // A created transfer needs this workflow only when a balance pays it at once (the rest start later).
    if (event.type === 'TransferCreated') {
      // Parsed with its schema by the consumer runtime already (events/consumers/applyBatch.ts).
      const created = event.data as TransferCreatedData
      if (created.funding !== 'BALANCE' || created.status !== 'PENDING') return []
    }
    return [
      {
        step: 'money',
        organizationId: organizationOfEvent(event),
        async run(runtime, context): Promise<{ position: Position | undefined }> {
          const { state } = await runtime.load(transferDecider, streams.transfer(transferId))
          if (state.status === 'none') return { position: undefined }
          switch (event.type) {
            case 'TransferCreated':
            case 'TransferSubmitted':
            case 'TransferAgentApprovalDecided':
              await fundIfAwaiting(runtime, state, context)
              break
            case 'TransferLegStarted':
            case 'TransferReviewCleared':
              if (awaitingBalanceCredit(state)) await deliverToBalance(runtime, state, context)
              break
            case 'TransferCompleted':
              // A payout's hold settles out of the service (a delivery settled its own already: a no-op).
              await settleSource(runtime, state, context)
              break
            case 'TransferFailed':
            case 'TransferCancelled':
              await release(runtime, state, context)
              break
            case 'TransferReversed':
              await returnFunds(runtime, state, context)
              break
            case 'TransferSuspenseResolved':
              await creditResolution(runtime, state, context)
              break
          }
          return { position: undefined }
        },
      },
    ]
  },
}
