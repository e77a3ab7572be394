// Agent-checked transfers created through HTTP (issue 27), beside the plain creates: an agent's key
// pays its customer's bank account from the agent's funded USD balance account. Every request is
// a plain balance-funded create plus the agent's scope check and a reservation on the agent's one
// spend stream (decided one after another: the windows hold under any concurrency), then the hold
// on the one balance account. The limits are far above what a run spends, so none denies. Its
// reference row is the same balance-funded create from one account with the platform key.
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

/**
 * POST /v1/transfers: 0.01 USD from one funded balance account to its customer's bank account over ACH,
 * with an agent's key (`agent`: its agent pays) or with the platform key (the reference).
 */
export async function balanceTransferCreateTarget(
  api: ServerChild,
  auth: Record<string, string>,
  by: 'agent' | 'platform',
): Promise<HttpTarget> {
  const customerId = await approvedCustomer(api, auth, ['USD_BALANCE', 'USD_ACH_PAYIN', 'USD_ACH_PAYOUT'])
  const balance = await post(api, auth, '/v1/balance-accounts', { customerId })
  await post(api, auth, `/v1/sandbox/accounts/${balance.id}/fund-in`, { amount: '1000000.00' })
  const bank = await post(api, auth, '/v1/external-bank-accounts', {
    customerId,
    accountOwnerName: 'Ada Lovelace',
    accountNumber: '000123456789',
    routingNumber: '021000021',
  })
  const body = JSON.stringify({
    source: { accountId: balance.id },
    destination: { accountId: bank.id, paymentRail: 'ACH' },
    sourceAmount: '1',
    clientReferenceId: `bench-${by}`,
  })
  const headers = by === 'platform' ? auth : await agentKeyHeaders(api, auth, customerId, balance.id, bank.id)
  // One create first: a refused body would make the row measure refusals.
  await post(api, headers, '/v1/transfers', JSON.parse(body) as object)
  return { url: api.baseUrl, paths: ['/v1/transfers'], method: 'POST', headers, body }
}

async function agentKeyHeaders(api: ServerChild, auth: Record<string, string>, customerId: string, sourceId: string, payeeId: string) {
  const agent = await post(api, auth, '/v1/agents', {
    name: 'Bench agent',
    customerId,
    sourceAccountId: sourceId,
    allowedDestinationAccountIds: [payeeId],
    limits: { currency: 'USD', perTransaction: '100', perDay: '10000000000', perMonth: '10000000000' },
  })
  const issued = await post(api, auth, `/v1/agents/${agent.id}/keys`, {})
  return { authorization: `Bearer ${issued.key!}` }
}
