// Helpers of the agent tests, through HTTP where the API does it: the organization's agents switch
// (an operator's: the same function the CLI runs), a customer with a balance account and a payee,
// an agent of theirs, and a key for it.
import { setAgentsFeature } from '../../commands/organizations/organizationCommands.js'
import { agentSpendDecider } from '../../domain/agent-spend/decider.js'
import { streams } from '../../events/streams.js'
import type { TestApp } from '../harness/testApp.js'
import { approvedCustomer, usBankAccount, usdBalance } from '../transfers/transferWorld.js'

export async function enableAgents(h: TestApp, organizationId = h.org.organizationId, enabled = true): Promise<void> {
  const position = await setAgentsFeature(h.runtime.commands, { organizationId, enabled, setBy: 'test operator', actor: 'test' })
  await h.runtime.runner.waitFor(position, 10_000)
}

export type AgentParties = { customerId: string; sourceAccountId: string; payeeId: string }

/** An APPROVED customer, its USD balance account and one external bank account to pay. */
export async function agentParties(h: TestApp, apiKey = h.org.apiKey): Promise<AgentParties> {
  const client = { request: h.request }
  const customerId = await approvedCustomer(client, undefined, { apiKey })
  const [sourceAccountId, payeeId] = await Promise.all([
    usdBalance(client, customerId, { apiKey }),
    usBankAccount(client, customerId, { apiKey }),
  ])
  return { customerId, sourceAccountId, payeeId }
}

export const agentBody = (p: AgentParties, extra: Record<string, unknown> = {}) => ({
  name: 'Payroll bot',
  description: 'Pays the monthly contractors',
  customerId: p.customerId,
  sourceAccountId: p.sourceAccountId,
  allowedDestinationAccountIds: [p.payeeId],
  limits: { currency: 'USD', perTransaction: '10000', perDay: '50000', perMonth: '200000' },
  overLimitAction: 'DENY',
  metadata: { team: 'finance' },
  mcpRole: 'PAYMENT',
  ...extra,
})

async function expectStatus<T>(h: TestApp, status: number, options: Parameters<TestApp['request']>[0]): Promise<T> {
  const res = await h.request(options)
  if (res.statusCode !== status) throw new Error(`${options.method} ${options.url}: ${res.statusCode} ${res.body}`)
  return res.json() as T
}

export async function newAgent(h: TestApp, p: AgentParties, extra: Record<string, unknown> = {}): Promise<{ id: string }> {
  return expectStatus(h, 201, { method: 'POST', url: '/v1/agents', payload: agentBody(p, extra) })
}

export async function newAgentKey(h: TestApp, agentId: string, body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const issued = await expectStatus<{ id: string; key: string }>(h, 201, {
    method: 'POST',
    url: `/v1/agents/${agentId}/keys`,
    payload: body,
  })
  h.secrets.add('agent key', issued.key)
  return issued
}

/** A reservation on the agent's spend stream, as the agent transfer routes make one (the default limits of agentBody). */
export async function reserveSpend(h: TestApp, agentId: string, transferId: string, amountMinor: string, now = new Date()) {
  const organizationId = h.org.organizationId
  const result = await h.runtime.commands.handle(
    agentSpendDecider,
    streams.agentSpend(agentId),
    {
      type: 'ReserveSpend',
      agentId,
      organizationId,
      transferId,
      now: now.toISOString(),
      limits: { currency: 'USD', perTransaction: '10000', perDay: '50000', perMonth: '200000' },
      overLimitAction: 'DENY',
      submittedDraft: false,
      amountMinor,
      conversion: { currency: 'USD', amountMinor, rate: null, rateSource: null },
    },
    { organizationId, requestId: `req_${transferId}`, actor: 'test' },
  )
  await h.runtime.runner.waitFor(result.position, 10_000)
}
