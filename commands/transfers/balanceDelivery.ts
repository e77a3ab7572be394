// A transfer's delivery into a balance destination: the credit of its destination amount, once (the
// command id and the credit's cause are the transfer's), from where the money is: clearing for a
// balance-funded transfer (its hold settled there), the sandbox's mint for a fixed route's sweep that
// mints a token into a treasury wallet, else the world (a deposit). The transfer workflow delivers on
// completion; a fixed route's sweep into a balance delivers at once with the same command.
import { TRANSFER_CREDIT_PREFIX } from '../../domain/account/creditCause.js'
import type { OpenTransferState } from '../../domain/transfer/decider.js'
import { creditFunds } from '../accounts/funds.js'
import type { Position } from '../../events/store/port.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'

type Runtime = Pick<CommandRuntime, 'handle'>

export function deliverySource(s: OpenTransferState): 'clearing' | 'mint' | 'world' {
  if (s.funding?.method === 'BALANCE') return 'clearing'
  return s.created.mintOnDelivery === true ? 'mint' : 'world'
}

/** The credit of a transfer's balance destination (once: its command id and cause are the transfer's). */
/** Its position: where the credit was stored (now, or by an earlier run of the same command); undefined when nothing is delivered. */
export async function deliverToBalance(runtime: Runtime, s: OpenTransferState, origin: CommandOrigin): Promise<Position | undefined> {
  const destination = s.created.destination
  if (destination.kind !== 'BALANCE' || !destination.accountId) return undefined
  const transferId = s.created.transferId
  const result = await creditFunds(
    runtime,
    {
      organizationId: s.created.organizationId,
      accountId: destination.accountId,
      currency: destination.currency,
      amountMinor: BigInt(s.created.destinationAmount.amountMinor),
      cause: `${TRANSFER_CREDIT_PREFIX}${transferId}`,
      source: deliverySource(s),
    },
    { ...origin, commandId: `transfer-deliver:${transferId}` },
  )
  return result.position ?? result.repeatedAt
}
