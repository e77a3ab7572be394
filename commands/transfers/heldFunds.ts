// Money of a transfer held in suspense (domain/transfer/suspense.ts). When the domain refuses a credit
// a transfer's money needs (a closed account, a balance over its ceiling), a workflow holds the money
// in suspense and puts the transfer IN_REVIEW: an outcome the caller sees (transfer.updated) and an
// operator resolves, never a consumer that stops. The operator's resolution to a balance account is
// credited from suspense (held again if that account refuses it too). Command ids name the transfer,
// the stage and the how-many-th time, so a replay does each once.
import { TRANSFER_RESOLUTION_PREFIX } from '../../domain/account/creditCause.js'
import { DomainError } from '../../domain/errors.js'
import type { SuspenseStage } from '../../domain/transfer/events.js'
import { type OpenTransferState, transferDecider } from '../../domain/transfer/decider.js'
import type { DeliverySource } from '../../domain/transfer/moneyInTransit.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { creditFunds } from '../accounts/funds.js'

const CODES: Readonly<Record<SuspenseStage, string>> = {
  DELIVERY: 'destination_unavailable',
  RETURN: 'return_account_unavailable',
  REFUND: 'refund_account_unavailable',
  RESOLUTION: 'resolution_account_unavailable',
}

export async function suspendFunds(
  runtime: Pick<CommandRuntime, 'handle'>,
  s: OpenTransferState,
  held: { stage: SuspenseStage; from: DeliverySource | null; refusal: DomainError },
  origin: CommandOrigin,
): Promise<Position | undefined> {
  const { transferId, organizationId } = s.created
  const n = (s.suspensions ?? 0) + 1
  const result = await runtime.handle(
    transferDecider,
    streams.transfer(transferId),
    {
      type: 'SuspendFunds',
      organizationId,
      transferId,
      now: new Date().toISOString(),
      stage: held.stage,
      code: CODES[held.stage],
      reason: `Held in suspense: ${held.refusal.message}`.slice(0, 500),
      from: held.from,
    },
    { ...origin, commandId: `transfer-suspend:${transferId}:${held.stage}:${n}` },
  )
  return result.position ?? result.repeatedAt
}

/** Held money an operator resolved to a balance account: credited from suspense, or held again when refused. */
export async function creditResolution(
  runtime: Pick<CommandRuntime, 'handle'>,
  s: OpenTransferState,
  origin: CommandOrigin,
): Promise<Position | undefined> {
  const resolution = s.suspended?.resolution
  if (s.status !== 'REVERSED' || !s.suspended || !resolution?.accountId) return undefined
  const { transferId, organizationId } = s.created
  const n = s.suspensions ?? 0
  try {
    const credited = await creditFunds(
      runtime,
      {
        organizationId,
        accountId: resolution.accountId,
        currency: s.suspended.amount.currency,
        amountMinor: BigInt(s.suspended.amount.amountMinor),
        cause: `${TRANSFER_RESOLUTION_PREFIX}${transferId}:${n}`,
        source: 'suspense',
      },
      { ...origin, commandId: `transfer-resolution:${transferId}:${n}` },
    )
    return credited.position ?? credited.repeatedAt
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return suspendFunds(runtime, s, { stage: 'RESOLUTION', from: null, refusal: error }, origin)
  }
}
