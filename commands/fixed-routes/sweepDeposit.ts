// A deposit recorded at a fixed route, swept on (design.md: a workflow of single-stream commands with
// deterministic ids, so the simulate request and the workflow after a crash repeat nothing):
//   1. the sweep transfer is planned from the recorded deposit (its rail, amount, reference) as a
//      transfer from that rail to the route's target, with the route's fee, and received: created and
//      funded at once (held IN_REVIEW when the deposit was held: unattributed, bank not allowed, below
//      the minimum); its id was recorded with the deposit, so a replay finds it;
//   2. a sweep into a balance account completes at once in the sandbox: the rails engine's steps run
//      now (timer-mode steps: a step someone else took meanwhile is not taken twice) up to the balance
//      credit, which the transfer's delivery applies (balanceDelivery.ts, the transfer workflow's own
//      commands: once; a target closed meanwhile holds the money in suspense, IN_REVIEW). Other
//      targets settle on the rails engine's timers like any transfer.
import type { FixedRouteDeposit } from '../../domain/account/decider.js'
import { DomainError } from '../../domain/errors.js'
import { depositKey } from '../../domain/fixed-route/deposits.js'
import type { FixedRouteAccount } from '../../domain/fixed-route/resource.js'
import type { Environment } from '../../domain/shared/environment.js'
import { type OpenTransferState, transferDecider } from '../../domain/transfer/decider.js'
import { legTracking } from '../../domain/transfer/legTracking.js'
import { awaitingBalanceCredit } from '../../domain/transfer/moneyInTransit.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { deliverToBalance } from '../transfers/balanceDelivery.js'
import { transferDestinationBody, transferSourceBody } from '../../domain/transfer/createTransferBody.js'
import { type NewTransfer, newTransfer } from '../transfers/newTransfer.js'
import { freshTrackingPool } from '../transfers/trackingPool.js'
import type { Commands } from '../runtime/commandRuntime.js'

type Runtime = Pick<CommandRuntime, 'handle'>
type Deps = { commands: Commands; environment: Environment }

/** The most rails-engine steps a sweep into a balance takes at once (two per leg: start, complete). */
const MAX_IMMEDIATE_STEPS = 12

/**
 * The sweep transfer of a deposit: a transfer from the deposit's rail to the route's target, paid by
 * the deposit. `received`: the deposit is recorded already (its money is here), so nothing refuses the plan.
 */
export async function planSweep(
  deps: Deps,
  route: FixedRouteAccount,
  deposit: FixedRouteDeposit,
  now: Date,
  received = false,
): Promise<NewTransfer> {
  const config = route.account.details.route
  const { organizationId, accountId } = route.account
  const planned = await newTransfer(
    {},
    deps,
    organizationId,
    deposit.transferId,
    {
      sourceCustomerId: deposit.customerId,
      source: {
        paymentRail: transferSourceBody.shape.paymentRail.parse(deposit.rail),
        currency: deposit.amount.currency,
        ...(config.refundAccountId ? { refundAccountId: config.refundAccountId } : {}),
      },
      destination: {
        accountId: config.sweepTargetAccountId,
        currency: config.destinationCurrency,
        paymentRail: transferDestinationBody.shape.paymentRail.parse(config.destinationRail),
      },
      sourceAmount: deposit.amount.amountMinor,
      developerFeeFixed: config.developerFeeFixedMinor,
      ...(config.developerFeePercent === null ? {} : { developerFeePercent: Number(config.developerFeePercent) }),
      clientReferenceId: deposit.reference,
      metadata: { fixedRouteId: accountId, sweepReferenceId: depositKey(deposit.reference, deposit.amount.amountMinor) },
    },
    now,
    { receivedDeposit: received },
  )
  return {
    ...planned,
    createdBy: 'PLATFORM',
    source: { ...planned.source, accountId, accountType: route.account.type },
    depositInstructions: null,
    remarks: `Sweep of fixed route ${accountId}`,
    mintOnDelivery: config.mintOnDelivery,
  }
}

async function receive(
  runtime: Runtime,
  deps: Deps,
  route: FixedRouteAccount,
  deposit: FixedRouteDeposit,
  origin: CommandOrigin,
  planned: NewTransfer | undefined,
) {
  const stream = streams.transfer(deposit.transferId)
  const { state } = await deps.commands.load(transferDecider, stream)
  if (state.status !== 'none') return { state, position: undefined }
  const now = new Date()
  const { transfer, hold } = planned ? { transfer: planned, hold: deposit.hold } : await planReceived(deps, route, deposit, now)
  const tracking = legTracking(transfer.legs[0]!, freshTrackingPool(now), { untrackedSwift: false, chargesFee: false })
  const result = await runtime.handle(
    transferDecider,
    stream,
    {
      type: 'ReceiveDeposit',
      organizationId: route.account.organizationId,
      transferId: deposit.transferId,
      now: now.toISOString(),
      transfer,
      originator: deposit.originator,
      tracking,
      hold,
      refusal: null,
    },
    { ...origin, commandId: `sweep-receive:${deposit.transferId}` },
  )
  return { state: result.state, position: result.position }
}

/**
 * The sweep of a deposit recorded before its plan could be checked (a crash between the two): its
 * money is here, so a target or a sender that would now refuse it (closed, no longer approved) holds
 * the sweep IN_REVIEW instead, for an operator or a refund to resolve; it is never lost.
 */
async function planReceived(deps: Deps, route: FixedRouteAccount, deposit: FixedRouteDeposit, now: Date) {
  try {
    return { transfer: await planSweep(deps, route, deposit, now), hold: deposit.hold }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const hold = deposit.hold ?? { code: 'sweep_not_deliverable', reason: `Held: the sweep cannot go on (${error.message})`.slice(0, 500) }
    return { transfer: await planSweep(deps, route, deposit, now, true), hold }
  }
}

/** The sandbox completes a sweep into a balance account at once: the rails engine's steps now, then the credit. */
async function completeIntoBalance(runtime: Runtime, deps: Deps, first: OpenTransferState, origin: CommandOrigin) {
  let s = first
  let position: Position | undefined
  const stream = streams.transfer(s.created.transferId)
  for (let step = 0; step < MAX_IMMEDIATE_STEPS && s.status === 'PROCESSING' && !awaitingBalanceCredit(s); step++) {
    const now = new Date()
    const result = await runtime.handle(
      transferDecider,
      stream,
      {
        type: 'AdvanceTransfer',
        organizationId: s.created.organizationId,
        transferId: s.created.transferId,
        now: now.toISOString(),
        mode: { by: 'timer', after: s.updatedAt },
        pool: freshTrackingPool(now),
      },
      // The step from this leg and its status: the same step again (a replay) is a no-op.
      { ...origin, commandId: `sweep-step:${s.created.transferId}:${s.currentLegIndex}:${s.legs[s.currentLegIndex]?.status ?? 'none'}` },
    )
    if (result.state.status === 'none') break
    position = result.position ?? position
    s = result.state
  }
  // The credit, then the leg's completion (or, refused, the money held in suspense).
  return (await deliverToBalance(runtime, s, origin)) ?? position
}

export async function sweepDeposit(
  runtime: Runtime,
  deps: Deps,
  route: FixedRouteAccount,
  deposit: FixedRouteDeposit,
  origin: CommandOrigin,
  /** The sweep already planned for this very deposit (the simulate request plans it before recording it). */
  planned?: NewTransfer,
): Promise<{ transfer: OpenTransferState; position: Position | undefined }> {
  const received = await receive(runtime, deps, route, deposit, origin, planned)
  if (received.state.status === 'none') throw new Error(`sweep ${deposit.transferId} missing after it was received`)
  let transfer = received.state
  let position = received.position
  const intoBalance = transfer.created.destination.kind === 'BALANCE'
  if (intoBalance && deps.environment === 'sandbox') {
    position = (await completeIntoBalance(runtime, deps, transfer, origin)) ?? position
    const { state } = await deps.commands.load(transferDecider, streams.transfer(deposit.transferId))
    if (state.status !== 'none') transfer = state
  }
  return { transfer, position }
}
