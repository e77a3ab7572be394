// The facts a transfer decision reads from other streams, loaded here so decide() stays pure: the
// sender (a customer of the organization), accounts (another organization's is a 404, as if it did
// not exist), a counterparty, and a transfer's own state.
import { type OpenAccountState, accountDecider } from '../../domain/account/decider.js'
import { type Counterparty, counterpartyDecider } from '../../domain/counterparty/decider.js'
import { requireCustomer } from '../../domain/customer/guards.js'
import type { Customer } from '../../domain/customer/state.js'
import { notFound } from '../../domain/errors.js'
import { type OpenTransferState, transferDecider } from '../../domain/transfer/decider.js'
import { streams } from '../../events/streams.js'
import { loadCustomer } from '../customers/facts.js'
import type { Commands } from '../runtime/commandRuntime.js'

export async function loadOrgAccount(commands: Commands, organizationId: string, accountId: string): Promise<OpenAccountState> {
  if (!/^[a-z]{2,4}_[0-9a-z]{26}$/.test(accountId)) throw notFound('Account', accountId)
  const { state } = await commands.load(accountDecider, streams.account(accountId))
  if (state.status === 'none' || state.account.organizationId !== organizationId) throw notFound('Account', accountId)
  return state
}

export async function loadSender(commands: Commands, organizationId: string, customerId: string): Promise<Customer> {
  return requireCustomer(await loadCustomer(commands, customerId), { organizationId, customerId })
}

export async function loadCounterparty(commands: Commands, organizationId: string, counterpartyId: string): Promise<Counterparty> {
  const { state } = await commands.load(counterpartyDecider, streams.counterparty(counterpartyId))
  if (state.status !== 'active' || state.organizationId !== organizationId) throw notFound('Counterparty', counterpartyId)
  return state
}

/** The transfer, scoped to the organization and to X-On-Behalf-Of (the source customer), else 404. */
export async function loadTransfer(
  commands: Commands,
  organizationId: string,
  transferId: string,
  onBehalfOf?: string,
): Promise<OpenTransferState> {
  const { state } = await commands.load(transferDecider, streams.transfer(transferId))
  if (state.status === 'none' || state.created.organizationId !== organizationId) throw notFound('Transfer', transferId)
  if (onBehalfOf !== undefined && state.created.customerId !== onBehalfOf) throw notFound('Transfer', transferId)
  return state
}
