// Reversing a transfer that was credited to a balance account starts by taking that credit back
// (issue 24, D3): the credit's whole amount leaves the destination for transit (clearing in one
// currency, the world when converted), then the reversal credits the source from there. A
// destination that no longer holds the money (spent, closed) refuses it: the reversal is 409
// transfer_not_reversible and nothing changed. The command id and the credit's cause are the
// transfer's, so a retry takes it back once; a crash before the reversal is finished by the
// reverse_reclaimed_transfers workflow.
import { TRANSFER_CREDIT_PREFIX } from '../../domain/account/creditCause.js'
import { DomainError, conflict } from '../../domain/errors.js'
import type { OpenTransferState } from '../../domain/transfer/decider.js'
import { transitOf } from '../../domain/transfer/moneyInTransit.js'
import { returnCredit } from '../accounts/funds.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'

export const reclaimCommandId = (transferId: string) => `transfer-reclaim:${transferId}`

/** True when the transfer's balance credit is back in transit (now, or by an earlier run); false when it had none. */
export async function reclaimDelivery(
  runtime: Pick<CommandRuntime, 'handle'>,
  s: OpenTransferState,
  origin: CommandOrigin,
): Promise<boolean> {
  const destination = s.created.destination
  if (destination.kind !== 'BALANCE' || !destination.accountId) return false
  const { transferId, organizationId } = s.created
  try {
    await returnCredit(
      runtime,
      { organizationId, accountId: destination.accountId, cause: `${TRANSFER_CREDIT_PREFIX}${transferId}`, to: transitOf(s) },
      { ...origin, commandId: reclaimCommandId(transferId) },
    )
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    if (error.code === 'credit_already_returned') return true
    throw conflict(
      'transfer_not_reversible',
      `Transfer ${transferId} cannot be reversed: its destination ${destination.accountId} cannot give the money back (${error.message})`,
    )
  }
  return true
}
