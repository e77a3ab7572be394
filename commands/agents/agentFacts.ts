// What agent commands read from other streams: the organization's agents switch, the agent of the
// organization (404 otherwise), and the accounts an agent would use (another organization's is a 404).
import type { AccountFact } from '../../domain/agent/agentAccounts.js'
import { type OpenAgent, agentDecider } from '../../domain/agent/decider.js'
import { notFound } from '../../domain/errors.js'
import { organizationDecider } from '../../domain/organization/decider.js'
import { streams } from '../../events/streams.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { loadOrgAccount } from '../transfers/transferFacts.js'

export async function agentsEnabled(commands: Commands, organizationId: string): Promise<boolean> {
  const { state } = await commands.load(organizationDecider, streams.organization(organizationId))
  return state.status === 'active' && state.agentsEnabled
}

export async function loadOrgAgent(commands: Commands, organizationId: string, agentId: string): Promise<OpenAgent> {
  if (!/^agt_[0-9a-z]{26}$/.test(agentId)) throw notFound('Agent', agentId)
  const { state } = await commands.load(agentDecider, streams.agent(agentId))
  if (state.status === 'none' || state.organizationId !== organizationId) throw notFound('Agent', agentId)
  return state
}

export async function loadAccountFact(commands: Commands, organizationId: string, accountId: string): Promise<AccountFact> {
  const { account, status } = await loadOrgAccount(commands, organizationId, accountId)
  return { accountId, customerId: account.customerId, status, balanceSourceEligible: account.balanceSourceEligible }
}

export const loadAccountFacts = (commands: Commands, organizationId: string, accountIds: readonly string[]): Promise<AccountFact[]> =>
  Promise.all(accountIds.map((id) => loadAccountFact(commands, organizationId, id)))
