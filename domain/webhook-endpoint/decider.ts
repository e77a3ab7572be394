// WebhookEndpoint aggregate: create, update, rotate the signing secret, delete.
import type { Decider } from '../decider.js'
import { DomainError, assertInvariant, invalid, notFound } from '../errors.js'
import type { WebhookEndpointEvent, WebhookSecretEntry } from './events.js'
import type { Environment } from '../shared/environment.js'

/** The previous secret stays valid this long after a rotation (spec: 24 hours). */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000
/** Secrets kept in state: the current one plus recently retired ones. */
export const MAX_SECRETS_KEPT = 5

export type WebhookEndpointState =
  | { status: 'none' }
  | {
      status: 'active' | 'deleted'
      id: string
      organizationId: string
      url: string
      description: string
      filterTypes: string[]
      metadata: Record<string, unknown>
      disabled: boolean
      secrets: WebhookSecretEntry[]
      createdAt: string
      updatedAt: string
    }

type Scoped = { organizationId: string; endpointId: string; now: string }
export type WebhookEndpointCommand =
  | (Scoped & {
      type: 'CreateWebhookEndpoint'
      url: string
      description: string
      filterTypes: string[]
      metadata: Record<string, unknown>
      secret: string
      environment: Environment
    })
  | (Scoped & {
      type: 'UpdateWebhookEndpoint'
      url?: string
      description?: string
      filterTypes?: string[]
      metadata?: Record<string, unknown>
      disabled?: boolean
      environment: Environment
    })
  | (Scoped & { type: 'RotateWebhookEndpointSecret'; secret: string })
  | (Scoped & { type: 'DeleteWebhookEndpoint' })

function assertUrlAllowed(url: string, environment: Environment): void {
  const parsed = new URL(url)
  if (environment === 'production' && parsed.protocol !== 'https:') {
    throw invalid('webhook_url_https_required', 'Webhook endpoints must use https in production', [
      { field: 'url', message: 'must be an https URL in production', value: url },
    ])
  }
}

export const webhookEndpointDecider: Decider<WebhookEndpointState, WebhookEndpointCommand, WebhookEndpointEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateWebhookEndpoint') {
      if (state.status !== 'none')
        throw new DomainError('conflict', 'resource_already_exists', `Webhook endpoint ${command.endpointId} already exists`)
      assertUrlAllowed(command.url, command.environment)
      return [
        {
          type: 'WebhookEndpointCreated',
          data: {
            endpointId: command.endpointId,
            organizationId: command.organizationId,
            url: command.url,
            description: command.description,
            filterTypes: command.filterTypes,
            metadata: command.metadata,
            secret: command.secret,
            createdAt: command.now,
          },
        },
      ]
    }
    // Another organization's endpoint is indistinguishable from a missing one.
    if (state.status !== 'active' || state.organizationId !== command.organizationId) {
      throw notFound('Webhook endpoint', command.endpointId)
    }
    switch (command.type) {
      case 'UpdateWebhookEndpoint': {
        if (command.url !== undefined) assertUrlAllowed(command.url, command.environment)
        const { type: _t, organizationId: _o, environment: _e, now, ...changes } = command
        return [{ type: 'WebhookEndpointUpdated', data: { ...changes, updatedAt: now } }]
      }
      case 'RotateWebhookEndpointSecret':
        return [
          {
            type: 'WebhookEndpointSecretRotated',
            data: {
              endpointId: command.endpointId,
              secret: command.secret,
              previousSecretExpiresAt: new Date(Date.parse(command.now) + PREVIOUS_SECRET_VALIDITY_MS).toISOString(),
              rotatedAt: command.now,
            },
          },
        ]
      case 'DeleteWebhookEndpoint':
        return [{ type: 'WebhookEndpointDeleted', data: { endpointId: command.endpointId, deletedAt: command.now } }]
    }
  },

  evolve(state, event) {
    if (event.type === 'WebhookEndpointCreated') {
      const d = event.data
      return {
        status: 'active',
        id: d.endpointId,
        organizationId: d.organizationId,
        url: d.url,
        description: d.description,
        filterTypes: d.filterTypes,
        metadata: d.metadata,
        disabled: false,
        secrets: [{ secret: d.secret, createdAt: d.createdAt, expiresAt: null }],
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      }
    }
    assertInvariant(state.status !== 'none', `${event.type} before WebhookEndpointCreated`)
    switch (event.type) {
      case 'WebhookEndpointUpdated': {
        const { endpointId: _id, updatedAt, ...changes } = event.data
        const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined))
        return { ...state, ...defined, updatedAt }
      }
      case 'WebhookEndpointSecretRotated': {
        const retired = state.secrets.map((s) => (s.expiresAt === null ? { ...s, expiresAt: event.data.previousSecretExpiresAt } : s))
        const secrets = [{ secret: event.data.secret, createdAt: event.data.rotatedAt, expiresAt: null }, ...retired].slice(
          0,
          MAX_SECRETS_KEPT,
        )
        return { ...state, secrets, updatedAt: event.data.rotatedAt }
      }
      case 'WebhookEndpointDeleted':
        return { ...state, status: 'deleted', updatedAt: event.data.deletedAt }
    }
  },
}

/** Secrets a receiver may verify with at `now`: the current one and unexpired retired ones. */
export function validSecrets(secrets: WebhookSecretEntry[], now: Date): string[] {
  return secrets.filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > now.getTime()).map((s) => s.secret)
}
