// Events of the WebhookEndpoint aggregate, version 1. The zod schemas are the one source of their
// types; events/catalog.ts registers them for validation and upcasting.
import { z } from 'zod'
import { sensitive } from '../shared/sensitive/index.js'

/** A signing secret: sealed wherever it is stored (the dispatcher opens it to sign). */
const signingSecret = sensitive(z.string().startsWith('whsec_'))

export const webhookSecretEntry = z.object({
  secret: signingSecret,
  createdAt: z.string(),
  /** Null for the current secret; set when a rotation retires it. */
  expiresAt: z.string().nullable(),
})

export const WebhookEndpointCreated = z.object({
  endpointId: z.string(),
  organizationId: z.string(),
  url: z.string(),
  description: z.string(),
  filterTypes: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  secret: signingSecret,
  createdAt: z.string(),
})

export const WebhookEndpointUpdated = z.object({
  endpointId: z.string(),
  url: z.string().optional(),
  description: z.string().optional(),
  filterTypes: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  disabled: z.boolean().optional(),
  updatedAt: z.string(),
})

export const WebhookEndpointSecretRotated = z.object({
  endpointId: z.string(),
  secret: signingSecret,
  previousSecretExpiresAt: z.string(),
  rotatedAt: z.string(),
})

export const WebhookEndpointDeleted = z.object({
  endpointId: z.string(),
  deletedAt: z.string(),
})

export const webhookEndpointEventSchemas = {
  WebhookEndpointCreated,
  WebhookEndpointUpdated,
  WebhookEndpointSecretRotated,
  WebhookEndpointDeleted,
} as const

export type WebhookEndpointEvent =
  | { type: 'WebhookEndpointCreated'; data: z.infer<typeof WebhookEndpointCreated> }
  | { type: 'WebhookEndpointUpdated'; data: z.infer<typeof WebhookEndpointUpdated> }
  | { type: 'WebhookEndpointSecretRotated'; data: z.infer<typeof WebhookEndpointSecretRotated> }
  | { type: 'WebhookEndpointDeleted'; data: z.infer<typeof WebhookEndpointDeleted> }

export type WebhookSecretEntry = z.infer<typeof webhookSecretEntry>
