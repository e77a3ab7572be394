// Agent-checked transfers created through HTTP (issue 27), beside the plain creates: an agent's key
// pays its customer's bank account from the agent's funded USD balance account. Every request is
// a plain balance-funded create plus the agent's scope check and a reservation on the agent's one
// spend stream (decided one after another: the windows hold under any concurrency), then the hold
// on the one balance account. The limits are far above what a run spends, so none denies.
import type { ServerChild } from './child.js'
import type { HttpTarget } from './httpBench.js'
import { approvedCustomer } from './transferCreateBench.js'

async function post(api: ServerChild, auth: Record<string, string>, path: string, body: object): Promise<{ id: string; key?: string }> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (response.status >= 300) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { id: string; key?: string }
}

/** POST /v1/transfers with an agent key: 0.01 USD from the agent's balance account to its one payee over ACH. */
export async function agentTransferCreateTarget(api: ServerChild, auth: Record<string, string>): Promise<HttpTarget> {
  const customerId = await approvedCustomer(api, auth)
  const balance = await post(api, auth, '/v1/balance-accounts', { customerId })
  await post(api, auth, `/v1/sandbox/accounts/${balance.id}/fund-in`, { amount: '1000000.00' })
  const bank = await post(api, auth, '/v1/external-bank-accounts', {
    customerId,
    accountOwnerName: 'Ada Lovelace',
    accountNumber: '000123456789',
    routingNumber: '021000021',
  })
  const agent = await post(api, auth, '/v1/agents', {
    name: 'Bench agent',
    customerId,
    sourceAccountId: balance.id,
    allowedDestinationAccountIds: [bank.id],
    limits: { currency: 'USD', perTransaction: '100', perDay: '10000000000', perMonth: '10000000000' },
  })
  const issued = await post(api, auth, `/v1/agents/${agent.id}/keys`, {})
  const body = JSON.stringify({
    source: { accountId: balance.id },
    destination: { accountId: bank.id, paymentRail: 'ACH' },
    sourceAmount: '1',
    clientReferenceId: 'bench-agent',
  })
  return { url: api.baseUrl, paths: ['/v1/transfers'], method: 'POST', headers: { authorization: `Bearer ${issued.key!}` }, body }
}
