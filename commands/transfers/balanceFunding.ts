// Funding a transfer from a balance: a hold on the balance account (the hold's id is the transfer's),
// then FundTransfer on the transfer. The create and submit routes, fund-from-balance and the
// funding workflow all run these same steps with the same command ids (derived from the transfer
// and the account), so a crash between any two of them, or a second run, repeats nothing and loses
// nothing: the hold is placed once, the transfer funded once, and a hold the transfer refuses
// (it was cancelled meanwhile, or funded from elsewhere) is released.
import { DomainError } from '../../domain/errors.js'
import type { Originator } from '../../domain/transfer/events.js'
import { transferDecider } from '../../domain/transfer/decider.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { placeHold, releaseHold } from '../accounts/funds.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import { crashPoint } from '../runtime/crashPoints.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'

type Runtime = Pick<CommandRuntime, 'handle'>

export type BalanceFunding = {
  organizationId: string
  transferId: string
  accountId: string
  currency: string
  amountMinor: bigint
  fundingCustomerId: string | null
  note: string | null
}

/**
 * `fundedNow`: this run's FundTransfer funded the transfer. False when it found it funded already by
 * the same hold (an earlier run, or a concurrent one with the same command ids): a workflow's replay
 * is fine with either, a caller's new request is not (fund-from-balance answers 409 then).
 */
export type FundingOutcome =
  | { outcome: 'funded'; position: Position | undefined; fundedNow: boolean }
  | { outcome: 'insufficient'; error: DomainError }
  | { outcome: 'refused'; error: DomainError }

export const fundingCommandId = (transferId: string, accountId: string, step: 'hold' | 'fund' | 'release') =>
  `transfer-funding:${transferId}:${accountId}:${step}`
export const failCommandId = (transferId: string) => `transfer-funding:${transferId}:fail`

const codeOf = (error: unknown) => (error instanceof DomainError ? error.code : undefined)

export async function fundFromBalance(runtime: Runtime, f: BalanceFunding, origin: CommandOrigin): Promise<FundingOutcome> {
  const at = (step: 'hold' | 'fund' | 'release'): CommandOrigin => ({
    ...origin,
    commandId: fundingCommandId(f.transferId, f.accountId, step),
  })
  const target = { organizationId: f.organizationId, accountId: f.accountId }
  try {
    await placeHold(runtime, { ...target, holdId: f.transferId, currency: f.currency, amountMinor: f.amountMinor }, at('hold'))
  } catch (error) {
    if (codeOf(error) === 'insufficient_funds') return { outcome: 'insufficient', error: error as DomainError }
    // hold_exists: an earlier run placed it (its command id fell behind a snapshot): carry on.
    if (codeOf(error) !== 'hold_exists') throw error
  }
  crashPoint('transfer-hold-placed')
  try {
    const funded = await runtime.handle(
      transferDecider,
      streams.transfer(f.transferId),
      {
        type: 'FundTransfer',
        organizationId: f.organizationId,
        transferId: f.transferId,
        now: new Date().toISOString(),
        method: 'BALANCE',
        accountId: f.accountId,
        holdId: f.transferId,
        fundingCustomerId: f.fundingCustomerId,
        note: f.note,
        originator: null as Originator | null,
        tracking: {},
      },
      at('fund'),
    )
    crashPoint('transfer-funded')
    return { outcome: 'funded', position: funded.position, fundedNow: funded.events.length > 0 }
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'conflict') throw error
    // The transfer will not take these funds: give them back.
    await releaseHeld(runtime, target, f.transferId, at('release'))
    return { outcome: 'refused', error }
  }
}

/** Releases the transfer's hold on an account; a hold never placed or already closed is fine. */
export async function releaseHeld(
  runtime: Runtime,
  target: { organizationId: string; accountId: string },
  transferId: string,
  origin: CommandOrigin,
) {
  try {
    await releaseHold(runtime, { ...target, holdId: transferId }, origin)
  } catch (error) {
    const code = codeOf(error)
    if (code !== 'resource_not_found' && code !== 'hold_closed') throw error
  }
}

/** A transfer its balance could not fund fails (before funds were received); one funded meanwhile stays funded. */
export async function failUnfunded(
  runtime: Runtime,
  organizationId: string,
  transferId: string,
  reason: string,
  origin: CommandOrigin,
  code = 'insufficient_funds',
) {
  return runtime.handle(
    transferDecider,
    streams.transfer(transferId),
    {
      type: 'FailTransfer',
      organizationId,
      transferId,
      now: new Date().toISOString(),
      code,
      reason,
      onlyIfUnfunded: true,
    },
    { ...origin, commandId: failCommandId(transferId) },
  )
}
