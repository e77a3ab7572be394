// The webhook endpoint as the API shows it, and the request shapes that create and change one.
// One source for validation, types and the OpenAPI document.
import { z } from 'zod'
import { PUBLIC_EVENT_TYPES } from '../publicEvents.js'
import type { WebhookSecretEntry } from './events.js'
import { validSecrets } from './decider.js'
import { metadataSchema, storedMetadataSchema } from '../shared/metadata.js'

export const WEBHOOK_ENDPOINT_LIMITS = {
  urlMaxLength: 2_048,
  descriptionMaxLength: 512,
  maxFilterTypes: PUBLIC_EVENT_TYPES.length,
} as const

const urlSchema = z
  .string()
  .max(WEBHOOK_ENDPOINT_LIMITS.urlMaxLength)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL (https in production)')
  .describe(
    'Where deliveries are POSTed. https is required in production. Refused with 422 webhook_url_not_allowed: credentials in the URL, and ' +
      'private, loopback, link-local or metadata addresses however written (literal, or a name that resolves to one); sandbox also ' +
      'allows loopback. In production, private-use names (.internal, .local, home.arpa, a single label) are refused too, and a name ' +
      'with no address in DNS is 422 webhook_url_unresolvable; a lookup that does not answer within 2 s is accepted. Every delivery ' +
      'resolves the name again and refuses a private answer.',
  )

const filterTypesSchema = z
  .array(z.enum(PUBLIC_EVENT_TYPES))
  .max(WEBHOOK_ENDPOINT_LIMITS.maxFilterTypes)
  .refine((types) => new Set(types).size === types.length, 'must not repeat a type')
  .describe('Event types to receive; empty or omitted means every type, including ones added later')

export const createWebhookEndpointBody = z.object({
  url: urlSchema,
  description: z.string().max(WEBHOOK_ENDPOINT_LIMITS.descriptionMaxLength).default(''),
  filterTypes: filterTypesSchema.default([]),
  metadata: metadataSchema.default({}),
})

export const updateWebhookEndpointBody = z
  .object({
    url: urlSchema.optional(),
    description: z.string().max(WEBHOOK_ENDPOINT_LIMITS.descriptionMaxLength).optional(),
    filterTypes: filterTypesSchema.optional(),
    metadata: metadataSchema.optional(),
    disabled: z.boolean().optional().describe('true stops deliveries; false resumes them'),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'send at least one field to change')

export const webhookEndpointResource = z.object({
  id: z.string().describe('Endpoint id, prefix ep_'),
  url: z.string(),
  description: z.string(),
  filterTypes: z.array(z.string()),
  disabled: z.boolean(),
  metadata: storedMetadataSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
})

export type WebhookEndpointResource = z.infer<typeof webhookEndpointResource>

export const webhookSecretResource = z.object({
  secret: z.string().describe('Current signing secret, whsec_ + base64 of 32 random bytes'),
  previousSecrets: z
    .array(z.object({ secret: z.string(), expiresAt: z.string() }))
    .describe('Secrets retired by a rotation that still verify until expiresAt (24 hours)'),
})

export function toWebhookEndpointResource(view: WebhookEndpointResource): WebhookEndpointResource {
  return {
    id: view.id,
    url: view.url,
    description: view.description,
    filterTypes: view.filterTypes,
    disabled: view.disabled,
    metadata: view.metadata,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  }
}

/** The secret view: the current secret first, then retired ones still valid at `now`. */
export function toWebhookSecretResource(secrets: WebhookSecretEntry[], now: Date): z.infer<typeof webhookSecretResource> {
  const valid = new Set(validSecrets(secrets, now))
  const [current, ...previous] = secrets
  if (!current) throw new Error('a webhook endpoint always has a current secret')
  return {
    secret: current.secret,
    previousSecrets: previous.filter((s) => valid.has(s.secret)).map((s) => ({ secret: s.secret, expiresAt: s.expiresAt! })),
  }
}
