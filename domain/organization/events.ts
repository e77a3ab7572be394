// Events of the Organization aggregate: the organization, its API keys (hashes only), its feature switches.
import { z } from 'zod'
import { environmentSchema } from '../shared/environment.js'
import { API_KEY_ROLES } from './apiKeys.js'

export const OrganizationCreated = z.object({
  organizationId: z.string(),
  name: z.string(),
  createdAt: z.string(),
})

export const ApiKeyCreated = z.object({
  keyId: z.string(),
  organizationId: z.string(),
  environment: environmentSchema,
  /** SHA-256 of the whole key, hex. The key itself is shown once and never stored. */
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** Last four characters, so an operator can tell keys apart. */
  last4: z.string().length(4),
  createdAt: z.string(),
  /** Added with auditor keys (issue 29): absent on every earlier key, and on a full key since, means FULL. */
  role: z.enum(API_KEY_ROLES).optional(),
})

export const ApiKeyRevoked = z.object({
  keyId: z.string(),
  organizationId: z.string(),
  revokedAt: z.string(),
})

/** An operator turned the agents feature on or off (early access: off until then). */
export const AgentsFeatureSet = z.object({
  organizationId: z.string().max(64),
  enabled: z.boolean(),
  setBy: z.string().min(1).max(100),
  at: z.iso.datetime(),
})

export const organizationEventSchemas = { OrganizationCreated, ApiKeyCreated, ApiKeyRevoked, AgentsFeatureSet } as const

export type OrganizationEvent =
  | { type: 'OrganizationCreated'; data: z.infer<typeof OrganizationCreated> }
  | { type: 'ApiKeyCreated'; data: z.infer<typeof ApiKeyCreated> }
  | { type: 'ApiKeyRevoked'; data: z.infer<typeof ApiKeyRevoked> }
  | { type: 'AgentsFeatureSet'; data: z.infer<typeof AgentsFeatureSet> }
