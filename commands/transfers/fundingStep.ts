// Runs a submitted balance-funded transfer's funding from a route (create, submit): the hold and
// FundTransfer of balanceFunding.ts, then the wait for the read models, and the answer. A hold its
// balance cannot cover fails the transfer (before funds were received) and answers 422
// insufficient_funds naming the transfer; the create route checks the balance first, so this is
// only the outcome of a race with another payout.
import type { FastifyRequest } from 'fastify'
import { DomainError } from '../../domain/errors.js'
import type { OpenTransferState } from '../../domain/transfer/decider.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { originFrom } from '../runtime/requestOrigin.js'
import { failUnfunded, fundFromBalance } from './balanceFunding.js'
import { loadTransfer } from './transferFacts.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'

/** True when the transfer waits for its own balance account's hold (not a sandbox failure trigger). */
export const awaitsSourceHold = (s: OpenTransferState): boolean =>
  s.status === 'PENDING' && s.created.funding === 'BALANCE' && s.funding === null && s.created.sandboxTrigger !== 'FAIL_BEFORE_FUNDING'

export async function fundSubmittedTransfer(
  runtime: CommandRuntime,
  request: FastifyRequest,
  s: OpenTransferState,
): Promise<OpenTransferState> {
  const origin = originFrom(request)
  const { organizationId, transferId } = s.created
  const result = await fundFromBalance(
    runtime,
    {
      organizationId,
      transferId,
      accountId: s.created.source.accountId!,
      currency: s.created.sourceAmount.currency,
      amountMinor: BigInt(s.created.sourceAmount.amountMinor),
      fundingCustomerId: s.created.customerId,
      note: null,
    },
    origin,
  )
  if (result.outcome === 'insufficient') {
    const failed = await failUnfunded(runtime, organizationId, transferId, result.error.message, origin)
    await runtime.readYourWrites(
      failed.position,
      failed.events.map((e) => e.type),
    )
    // Failed here or by the funding workflow racing this request: either way the answer is the 422.
    const now = await loadTransfer(runtime, organizationId, transferId)
    if (now.status === 'FAILED')
      throw new DomainError('validation', 'insufficient_funds', `${result.error.message}; transfer ${transferId} failed`, [
        ...result.error.details,
        { field: 'transferId', message: 'the transfer failed before funds were received', value: transferId },
      ])
    return now
  }
  if (result.outcome === 'funded') await readFunded(runtime, transferId, result.position)
  return loadTransfer(runtime, organizationId, transferId)
}

/** Waits for the read models to show the transfer funded (by this request, or by the workflow before it). */
export async function readFunded(runtime: CommandRuntime, transferId: string, position: Position | undefined): Promise<void> {
  await runtime.readYourWrites(position ?? (await lastPosition(runtime, transferId)), ['TransferFunded'])
}

/**
 * The position of the transfer's last event: what the read models must reach when the funding
 * workflow funded it first (this request's steps were then no-ops, with no position of their own).
 */
async function lastPosition(runtime: CommandRuntime, transferId: string) {
  return (await runtime.store.readStream(streams.transfer(transferId))).at(-1)?.position
}
