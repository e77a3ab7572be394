// The agent aggregate: a limited-authority payer for one customer, from one balance account, to the
// payees its owner allows. Statuses (spec: ACTIVE, PAUSED, REVOKED; transitions "not shown", so ours):
//
//   (none) ──create──► ACTIVE ──pause──► PAUSED ──resume──► ACTIVE
//   ACTIVE | PAUSED ──revoke──► REVOKED   final: its keys stop working; nothing changes it again
//
// A repeated pause, resume or revoke answers the agent as it is; every other move from a status the
// table does not allow is 409 agent_invalid_transition naming both. Its keys live in its stream.
import type { Decider } from '../decider.js'
import { DomainError, assertInvariant, conflict, invalid, notFound } from '../errors.js'
import type { Environment } from '../shared/environment.js'
import type { AgentStatus } from './agentBody.js'
import { type AgentFacts, accountProblems } from './agentAccounts.js'
import { AGENT_SETTING_NAMES, type AgentEvent, type AgentSettings } from './events.js'

export const AGENT_KEY_LIMITS = {
  /** Keys an agent holds at once; a revoked or expired one frees its place. */
  maxActiveKeys: 10,
  /** The latest expiry a key may be given. */
  maxLifetimeDays: 366,
} as const

export type AgentKey = { keyId: string; environment: Environment; last4: string; expiresAt: string | null; createdAt: string }

export type OpenAgent = {
  status: AgentStatus
  agentId: string
  organizationId: string
  customerId: string
  sourceAccountId: string
  settings: AgentSettings
  /** Keys not revoked (an expired one stays until revoked or replaced: the list shows it expired). */
  keys: AgentKey[]
  createdAt: string
  updatedAt: string
}
export type AgentState = { status: 'none' } | OpenAgent

type Scoped = { organizationId: string; agentId: string; now: string }

export type AgentCommand =
  | (Scoped & {
      type: 'CreateAgent'
      customerId: string
      sourceAccountId: string
      settings: AgentSettings
      facts: AgentFacts
    })
  | (Scoped & { type: 'UpdateAgent'; changes: Partial<AgentSettings>; facts: AgentFacts })
  | (Scoped & { type: 'PauseAgent'; reason: string | null })
  | (Scoped & { type: 'ResumeAgent' })
  | (Scoped & { type: 'RevokeAgent'; reason: string | null })
  | (Scoped & {
      type: 'IssueAgentKey'
      keyId: string
      environment: Environment
      keyHash: string
      last4: string
      expiresAt: string | null
      agentsEnabled: boolean
    })
  | (Scoped & { type: 'RevokeAgentKey'; keyId: string })

export const agentsNotEnabled = () =>
  new DomainError(
    'forbidden',
    'agents_not_enabled',
    'Agents are not enabled for this organization: they are an early-access feature an operator turns on (agents enable)',
  )

const invalidTransition = (agentId: string, from: AgentStatus, to: string) =>
  conflict('agent_invalid_transition', `Agent ${agentId} is ${from}; it cannot be ${to}`)

function opened(state: AgentState, command: Scoped): OpenAgent {
  if (state.status === 'none' || state.organizationId !== command.organizationId) throw notFound('Agent', command.agentId)
  return state
}

function notRevoked(s: OpenAgent, to: string): void {
  if (s.status === 'REVOKED') throw invalidTransition(s.agentId, s.status, to)
}

/** Keys still usable at `now`: not revoked and not past their expiry. */
export const liveKeys = (s: OpenAgent, now: string): AgentKey[] => s.keys.filter((k) => k.expiresAt === null || k.expiresAt > now)

function sameSetting(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function decide(command: AgentCommand, state: AgentState): AgentEvent[] {
  const ref = { agentId: command.agentId, organizationId: command.organizationId, at: command.now }
  if (command.type === 'CreateAgent') {
    if (state.status !== 'none') throw conflict('resource_already_exists', `Agent ${command.agentId} already exists`)
    if (!command.facts.agentsEnabled) throw agentsNotEnabled()
    accountProblems(command, command.facts)
    const { customerId, sourceAccountId, settings } = command
    return [{ type: 'AgentCreated', data: { ...ref, customerId, sourceAccountId, ...settings } }]
  }
  const s = opened(state, command)
  switch (command.type) {
    case 'UpdateAgent': {
      notRevoked(s, 'changed')
      const settings = { ...s.settings, ...command.changes }
      const changed = AGENT_SETTING_NAMES.filter((name) => !sameSetting(settings[name], s.settings[name]))
      if (changed.length === 0) return []
      // What the agent has spent is counted in its limits' currency (domain/agent-spend/): the currency stays.
      if (settings.limits.currency !== s.settings.limits.currency)
        throw invalid('agent_limits_currency_fixed', `The limits of agent ${s.agentId} are counted in ${s.settings.limits.currency}`, [
          { field: 'body.limits.currency', message: `must stay ${s.settings.limits.currency}; create another agent for another currency` },
        ])
      if (changed.includes('allowedDestinationAccountIds')) accountProblems(s, command.facts)
      return [{ type: 'AgentUpdated', data: { ...ref, ...settings, changed } }]
    }
    case 'PauseAgent':
      if (s.status === 'PAUSED') return []
      notRevoked(s, 'paused')
      return [{ type: 'AgentPaused', data: { ...ref, reason: command.reason } }]
    case 'ResumeAgent':
      if (s.status === 'ACTIVE') return []
      notRevoked(s, 'resumed')
      return [{ type: 'AgentResumed', data: ref }]
    case 'RevokeAgent':
      if (s.status === 'REVOKED') return []
      return [{ type: 'AgentRevoked', data: { ...ref, reason: command.reason } }]
    case 'IssueAgentKey': {
      if (!command.agentsEnabled) throw agentsNotEnabled()
      notRevoked(s, 'given a key')
      if (liveKeys(s, command.now).length >= AGENT_KEY_LIMITS.maxActiveKeys)
        throw conflict('agent_key_limit_reached', `An agent holds at most ${AGENT_KEY_LIMITS.maxActiveKeys} live keys; revoke one first`)
      const { keyId, environment, keyHash, last4, expiresAt } = command
      return [{ type: 'AgentKeyIssued', data: { ...ref, keyId, environment, keyHash, last4, expiresAt } }]
    }
    case 'RevokeAgentKey':
      if (!s.keys.some((k) => k.keyId === command.keyId)) throw notFound('Agent key', command.keyId)
      return [{ type: 'AgentKeyRevoked', data: { ...ref, keyId: command.keyId } }]
  }
}

function evolve(state: AgentState, event: AgentEvent): AgentState {
  if (event.type === 'AgentCreated') {
    const { agentId, organizationId, customerId, sourceAccountId, at, ...settings } = event.data
    return { status: 'ACTIVE', agentId, organizationId, customerId, sourceAccountId, settings, keys: [], createdAt: at, updatedAt: at }
  }
  assertInvariant(state.status !== 'none', `${event.type} before AgentCreated`)
  const s = { ...state, updatedAt: event.data.at }
  switch (event.type) {
    case 'AgentUpdated': {
      const { agentId: _a, organizationId: _o, at: _at, changed: _c, ...settings } = event.data
      return { ...s, settings }
    }
    case 'AgentPaused':
      return { ...s, status: 'PAUSED' }
    case 'AgentResumed':
      return { ...s, status: 'ACTIVE' }
    case 'AgentRevoked':
      // Revoking the agent revokes its keys with it (the read model marks them so too).
      return { ...s, status: 'REVOKED', keys: [] }
    case 'AgentKeyIssued': {
      const { keyId, environment, last4, expiresAt, at } = event.data
      // Expired keys make room: the state holds at most the live keys and the newest expired ones.
      const kept = s.keys.filter((k) => k.expiresAt === null || k.expiresAt > at)
      return { ...s, keys: [...kept, { keyId, environment, last4, expiresAt, createdAt: at }] }
    }
    case 'AgentKeyRevoked':
      return { ...s, keys: s.keys.filter((k) => k.keyId !== event.data.keyId) }
  }
}

export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
}
