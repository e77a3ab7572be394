// The agent decider: the switch, the accounts an agent may use, its status table, its keys.
import t from 'tap'
import { AGENT_KEY_LIMITS, type AgentCommand, agentDecider, liveKeys } from '../../../domain/agent/decider.js'
import type { AgentEvent, AgentSettings } from '../../../domain/agent/events.js'
import type { AccountFact } from '../../../domain/agent/agentAccounts.js'
import { spec } from '../deciderSpec.js'

const now = '2026-11-28T10:00:00.000Z'
const later = '2026-11-28T11:00:00.000Z'
const ref = { organizationId: 'org_a', agentId: 'agt_1', now }
const settings: AgentSettings = {
  name: 'Payroll bot',
  description: '',
  allowedDestinationAccountIds: ['eba_payee'],
  limits: { currency: 'USD', perTransaction: '10000', perDay: '50000', perMonth: '200000' },
  overLimitAction: 'DENY',
  metadata: {},
  mcpRole: 'PAYMENT',
}
const source: AccountFact = { accountId: 'acc_src', customerId: 'cus_1', status: 'ACTIVE', balanceSourceEligible: true }
const payee: AccountFact = { accountId: 'eba_payee', customerId: 'cus_1', status: 'ACTIVE', balanceSourceEligible: false }
const create: AgentCommand = {
  type: 'CreateAgent',
  ...ref,
  customerId: 'cus_1',
  sourceAccountId: 'acc_src',
  settings,
  facts: { agentsEnabled: true, sourceAccount: source, destinations: [payee] },
}
const created: AgentEvent = {
  type: 'AgentCreated',
  data: { agentId: 'agt_1', organizationId: 'org_a', customerId: 'cus_1', sourceAccountId: 'acc_src', ...settings, at: now },
}
const paused: AgentEvent = { type: 'AgentPaused', data: { agentId: 'agt_1', organizationId: 'org_a', reason: null, at: now } }
const revoked: AgentEvent = { type: 'AgentRevoked', data: { agentId: 'agt_1', organizationId: 'org_a', reason: 'done', at: now } }
const issue = (keyId: string, expiresAt: string | null = null): AgentCommand => ({
  type: 'IssueAgentKey',
  ...ref,
  keyId,
  environment: 'sandbox',
  keyHash: 'a'.repeat(64),
  last4: 'wxyz',
  expiresAt,
  agentsEnabled: true,
})
const issued = (keyId: string, expiresAt: string | null = null): AgentEvent => ({
  type: 'AgentKeyIssued',
  data: {
    agentId: 'agt_1',
    organizationId: 'org_a',
    keyId,
    environment: 'sandbox',
    keyHash: 'a'.repeat(64),
    last4: 'wxyz',
    expiresAt,
    at: now,
  },
})
const agent = spec(agentDecider)

t.test('create: the switch and the accounts', async (t) => {
  agent.given([]).when(create).then(t, [created])
  agent
    .given([])
    .when({ ...create, facts: { ...create.facts, agentsEnabled: false } } as AgentCommand)
    .thenThrows(t, 'agents_not_enabled')
  agent.given([created]).when(create).thenThrows(t, 'resource_already_exists')
  const other = { ...source, customerId: 'cus_2' }
  agent
    .given([])
    .when({ ...create, facts: { agentsEnabled: true, sourceAccount: other, destinations: [] } } as AgentCommand)
    .thenThrows(t, 'agent_account_not_allowed', "another customer's source account")
  agent
    .given([])
    .when({ ...create, facts: { agentsEnabled: true, sourceAccount: { ...source, balanceSourceEligible: false } } } as AgentCommand)
    .thenThrows(t, 'agent_account_not_allowed', 'a source that cannot fund transfers')
  agent
    .given([])
    .when({
      ...create,
      facts: { agentsEnabled: true, sourceAccount: source, destinations: [{ ...payee, status: 'CLOSED' }] },
    } as AgentCommand)
    .thenThrows(t, 'agent_account_not_allowed', 'a closed payee')
  agent
    .given([])
    .when({ ...create, facts: { agentsEnabled: true, sourceAccount: source, destinations: [source] } } as AgentCommand)
    .thenThrows(t, 'agent_account_not_allowed', 'the source as its own payee')
})

t.test('the status table: pause, resume, revoke (final)', async (t) => {
  agent
    .given([created])
    .when({ type: 'PauseAgent', ...ref, reason: null })
    .then(t, [paused])
  agent
    .given([created, paused])
    .when({ type: 'PauseAgent', ...ref, reason: null })
    .then(t, [], 'pausing a PAUSED agent: nothing')
  agent
    .given([created, paused])
    .when({ type: 'ResumeAgent', ...ref })
    .thenMatches(t, [{ type: 'AgentResumed' }])
  agent
    .given([created])
    .when({ type: 'ResumeAgent', ...ref })
    .then(t, [], 'resuming an ACTIVE agent: nothing')
  agent
    .given([created, paused])
    .when({ type: 'RevokeAgent', ...ref, reason: 'done' })
    .then(t, [revoked])
  agent
    .given([created, revoked])
    .when({ type: 'RevokeAgent', ...ref, reason: 'again' })
    .then(t, [], 'revoking a REVOKED agent: nothing')
  for (const command of [
    { type: 'PauseAgent', ...ref, reason: null },
    { type: 'ResumeAgent', ...ref },
    { type: 'UpdateAgent', ...ref, changes: { name: 'x' }, facts: { agentsEnabled: true } },
    issue('agk_1'),
  ] as AgentCommand[])
    agent.given([created, revoked]).when(command).thenThrows(t, 'agent_invalid_transition', `${command.type} on a REVOKED agent`)
  agent
    .given([])
    .when({ type: 'PauseAgent', ...ref, reason: null })
    .thenThrows(t, 'resource_not_found')
  agent
    .given([created])
    .when({ type: 'PauseAgent', ...ref, organizationId: 'org_b', reason: null })
    .thenThrows(t, 'resource_not_found', "another organization's agent")
})

t.test('update: what changed, nothing when nothing did', async (t) => {
  const limits = { ...settings.limits, perDay: '60000' }
  agent
    .given([created])
    .when({ type: 'UpdateAgent', ...ref, changes: { limits, name: 'Payroll bot' }, facts: { agentsEnabled: true } })
    .thenMatches(t, [{ type: 'AgentUpdated', data: { changed: ['limits'], limits, name: 'Payroll bot' } }])
  agent
    .given([created])
    .when({ type: 'UpdateAgent', ...ref, changes: { name: 'Payroll bot' }, facts: { agentsEnabled: true } })
    .then(t, [], 'an unchanged setting: no event')
  agent
    .given([created])
    .when({ type: 'UpdateAgent', ...ref, changes: { limits: { ...limits, currency: 'EUR' } }, facts: { agentsEnabled: true } })
    .thenThrows(t, 'agent_limits_currency_fixed', 'spend is counted in the currency the agent started with')
  agent
    .given([created])
    .when({
      type: 'UpdateAgent',
      ...ref,
      changes: { allowedDestinationAccountIds: ['eba_other'] },
      facts: { agentsEnabled: true, destinations: [{ ...payee, accountId: 'eba_other', customerId: 'cus_9' }] },
    })
    .thenThrows(t, 'agent_account_not_allowed', "a payee of another customer's")
  const state = agent.given([
    created,
    { type: 'AgentUpdated', data: { ...created.data, name: 'Renamed', changed: ['name'], at: later } },
  ]).state
  t.match(
    state,
    { status: 'ACTIVE', settings: { name: 'Renamed' }, updatedAt: later, customerId: 'cus_1' },
    'evolve takes the new settings',
  )
})

t.test('keys: issued, limited, revoked; revoking the agent drops them', async (t) => {
  agent
    .given([created])
    .when(issue('agk_1'))
    .then(t, [issued('agk_1')])
  agent
    .given([created])
    .when({ ...issue('agk_1'), agentsEnabled: false } as AgentCommand)
    .thenThrows(t, 'agents_not_enabled')
  const full = Array.from({ length: AGENT_KEY_LIMITS.maxActiveKeys }, (_, i) => issued(`agk_${i}`))
  agent
    .given([created, ...full])
    .when(issue('agk_x'))
    .thenThrows(t, 'agent_key_limit_reached')
  const expiring = Array.from({ length: AGENT_KEY_LIMITS.maxActiveKeys }, (_, i) => issued(`agk_${i}`, '2026-11-28T10:30:00.000Z'))
  agent
    .given([created, ...expiring])
    .when({ ...issue('agk_x'), now: later } as AgentCommand)
    .thenMatches(t, [{ type: 'AgentKeyIssued' }], 'expired keys make room')
  agent
    .given([created, issued('agk_1')])
    .when({ type: 'RevokeAgentKey', ...ref, keyId: 'agk_1' })
    .thenMatches(t, [{ type: 'AgentKeyRevoked', data: { keyId: 'agk_1' } }])
  agent
    .given([created])
    .when({ type: 'RevokeAgentKey', ...ref, keyId: 'agk_1' })
    .thenThrows(t, 'resource_not_found')
  const state = agent.given([created, issued('agk_1'), issued('agk_2', '2026-11-28T10:30:00.000Z'), revoked]).state
  t.match(state, { status: 'REVOKED', keys: [] }, 'a revoked agent holds no key')
  const live = agent.given([created, issued('agk_1'), issued('agk_2', '2026-11-28T10:30:00.000Z')]).state
  if (live.status === 'none') throw new Error('no agent')
  t.same(
    liveKeys(live, later).map((k) => k.keyId),
    ['agk_1'],
    'an expired key is not live',
  )
})
