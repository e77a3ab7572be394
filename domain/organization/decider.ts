// Organization aggregate: an organization, the API keys tied to it, and its feature switches (agents).
import type { Decider } from '../decider.js'
import { DomainError, assertInvariant, notFound } from '../errors.js'
import type { Environment } from '../shared/environment.js'
import type { ApiKeyRole } from './apiKeys.js'
import type { OrganizationEvent } from './events.js'

/** Active keys an organization may hold at once. */
export const MAX_ACTIVE_KEYS = 50

export type OrganizationState =
  { status: 'none' } | { status: 'active'; id: string; name: string; activeKeyIds: string[]; agentsEnabled: boolean }

export type OrganizationCommand =
  | { type: 'CreateOrganization'; organizationId: string; name: string; now: string }
  | {
      type: 'CreateApiKey'
      organizationId: string
      keyId: string
      environment: Environment
      keyHash: string
      last4: string
      /** Absent: FULL. */
      role?: ApiKeyRole
      now: string
    }
  | { type: 'RevokeApiKey'; organizationId: string; keyId: string; now: string }
  /** The agents switch (early access, spec: Agent): an operator's, from the CLI. */
  | { type: 'SetAgentsFeature'; organizationId: string; enabled: boolean; setBy: string; now: string }

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization':
        if (state.status !== 'none')
          throw new DomainError('conflict', 'resource_already_exists', `Organization ${command.organizationId} already exists`)
        return [
          { type: 'OrganizationCreated', data: { organizationId: command.organizationId, name: command.name, createdAt: command.now } },
        ]
      case 'CreateApiKey':
        if (state.status === 'none') throw notFound('Organization', command.organizationId)
        if (state.activeKeyIds.length >= MAX_ACTIVE_KEYS) {
          throw new DomainError('conflict', 'api_key_limit_reached', `An organization holds at most ${MAX_ACTIVE_KEYS} active keys`)
        }
        return [
          {
            type: 'ApiKeyCreated',
            data: {
              keyId: command.keyId,
              organizationId: command.organizationId,
              environment: command.environment,
              keyHash: command.keyHash,
              last4: command.last4,
              createdAt: command.now,
              // A full key's event stays as it always was: no role means FULL.
              ...(command.role === undefined || command.role === 'FULL' ? {} : { role: command.role }),
            },
          },
        ]
      case 'RevokeApiKey':
        if (state.status === 'none' || !state.activeKeyIds.includes(command.keyId)) throw notFound('API key', command.keyId)
        return [{ type: 'ApiKeyRevoked', data: { keyId: command.keyId, organizationId: command.organizationId, revokedAt: command.now } }]
      case 'SetAgentsFeature':
        if (state.status === 'none') throw notFound('Organization', command.organizationId)
        if (state.agentsEnabled === command.enabled) return []
        return [
          {
            type: 'AgentsFeatureSet',
            data: { organizationId: command.organizationId, enabled: command.enabled, setBy: command.setBy, at: command.now },
          },
        ]
    }
  },

  evolve(state, event) {
    if (event.type === 'OrganizationCreated') {
      return { status: 'active', id: event.data.organizationId, name: event.data.name, activeKeyIds: [], agentsEnabled: false }
    }
    assertInvariant(state.status === 'active', `${event.type} before OrganizationCreated`)
    switch (event.type) {
      case 'ApiKeyCreated':
        return { ...state, activeKeyIds: [...state.activeKeyIds, event.data.keyId] }
      case 'ApiKeyRevoked':
        return { ...state, activeKeyIds: state.activeKeyIds.filter((id) => id !== event.data.keyId) }
      case 'AgentsFeatureSet':
        return { ...state, agentsEnabled: event.data.enabled }
    }
  },
}
