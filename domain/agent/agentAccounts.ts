// Which accounts an agent may use, checked when it is created and when its payees change: its source
// is a balance account of its customer that can fund transfers; its payees are open accounts of the
// same customer (its own, or its counterparties' external accounts), never the source itself.
import { type ErrorDetail, invalid } from '../errors.js'

/** What the checks read of an account (loaded by the route; another organization's is a 404 there). */
export type AccountFact = {
  accountId: string
  customerId: string | null
  status: 'IN_REVIEW' | 'ACTIVE' | 'CLOSED'
  balanceSourceEligible: boolean
}

/** What a create or change reads from other streams, loaded by the route (the decider stays pure). */
export type AgentFacts = {
  /** The organization's agents switch (an operator's, `agents enable`). */
  agentsEnabled: boolean
  sourceAccount?: AccountFact
  destinations?: AccountFact[]
}

/** Throws 422 naming every account the agent may not use; `facts` holds what the command changes. */
export function accountProblems(agent: { customerId: string; sourceAccountId: string }, facts: AgentFacts): void {
  const { customerId, sourceAccountId } = agent
  const details: ErrorDetail[] = []
  const source = facts.sourceAccount
  if (source) {
    if (source.customerId !== customerId)
      details.push({ field: 'body.sourceAccountId', message: `must be an account of customer ${customerId}` })
    else if (!source.balanceSourceEligible)
      details.push({ field: 'body.sourceAccountId', message: 'must be a balance account that can fund transfers (acc_, inw_)' })
    else if (source.status !== 'ACTIVE') details.push({ field: 'body.sourceAccountId', message: `is ${source.status}, not ACTIVE` })
  }
  for (const [index, account] of (facts.destinations ?? []).entries()) {
    const field = `body.allowedDestinationAccountIds.${index}`
    if (account.customerId !== customerId)
      details.push({ field, message: `must be an account of customer ${customerId} or of one of its counterparties` })
    else if (account.status === 'CLOSED') details.push({ field, message: 'is CLOSED' })
    else if (account.accountId === sourceAccountId) details.push({ field, message: 'is the source account' })
  }
  if (details.length > 0) throw invalid('agent_account_not_allowed', 'The agent cannot use these accounts', details)
}
