// What a transfer create needs before the decider plans it (domain/transfer/planTransfer.ts): the
// facts it reads from other streams, read side by side, and the randomness it uses, drawn here so
// the plan stays pure. `newTransfer` plans at once, for the platform's own transfers (a fixed
// route's sweep, a sandbox platform draft) that change the plan before they create it.
import { invalid } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import type { Environment } from '../../domain/shared/environment.js'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import type { CreateTransferBody } from '../../domain/transfer/createTransferBody.js'
import {
  MAX_TRANSFER_LEGS,
  type NewTransfer,
  type PlanEntropy,
  type Planning,
  type TransferFacts,
  destinationAccountIdOf,
  planTransfer,
} from '../../domain/transfer/planTransfer.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { type CustomerScope, scopedCustomerId } from '../customers/scope.js'
import { loadCounterparty, loadOrgAccount, loadSender } from './transferFacts.js'

export type { NewTransfer } from '../../domain/transfer/planTransfer.js'

type Deps = { commands: Commands; environment: Environment }

/** The facts of a create request; 404 for an account, customer or counterparty the organization does not have. */
export async function loadTransferFacts(
  request: CustomerScope,
  commands: Commands,
  organizationId: string,
  body: CreateTransferBody,
  planning: Planning = {},
): Promise<TransferFacts> {
  const account = (id: string | undefined) => (id === undefined ? undefined : loadOrgAccount(commands, organizationId, id))
  const named = body.sourceCustomerId === undefined ? undefined : scopedCustomerId(request, body.sourceCustomerId)
  const counterpartyId = body.destination.counterpartyId
  // Checked before any read starts: a throw below the reads would leave them unawaited.
  const destinationAccountId = destinationAccountIdOf(body)
  const [sourceAccount, namedSender, destinationAccount, refundAccount, sourceExternalAccount, counterparty] = await Promise.all([
    account(body.source.accountId),
    named === undefined ? undefined : loadSender(commands, organizationId, named),
    account(destinationAccountId),
    planning.receivedDeposit === true ? undefined : account(body.source.refundAccountId),
    account(body.source.externalAccountId),
    counterpartyId === undefined ? undefined : loadCounterparty(commands, organizationId, counterpartyId),
  ])
  const senderId = named ?? scopedCustomerId(request, sourceAccount?.account.customerId ?? undefined)
  if (senderId === undefined)
    throw invalid('source_customer_required', 'sourceCustomerId is required', [
      { field: 'sourceCustomerId', message: 'the sending customer (cus_)' },
    ])
  const sender = namedSender ?? (await loadSender(commands, organizationId, senderId))
  return { sender, sourceAccount, destinationAccount, refundAccount, sourceExternalAccount, counterparty }
}

/** Fresh leg ids and a deposit address seed: what a plan draws, fixed before the decider runs it. */
export function drawPlanEntropy(): PlanEntropy {
  return { legIds: Array.from({ length: MAX_TRANSFER_LEGS }, () => newId('tleg')), depositAddressSeed: secureRandomBytes(32) }
}

/** The facts loaded and the transfer planned, for a caller that adjusts the plan before creating it. */
export async function newTransfer(
  request: CustomerScope,
  deps: Deps,
  organizationId: string,
  transferId: string,
  body: CreateTransferBody,
  now: Date,
  planning: Planning = {},
): Promise<NewTransfer> {
  const facts = await loadTransferFacts(request, deps.commands, organizationId, body, planning)
  return planTransfer({ body, facts, environment: deps.environment, transferId, now, entropy: drawPlanEntropy(), planning })
}
