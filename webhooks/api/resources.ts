// Webhook messages, deliveries and attempts as the API shows them. One source for validation,
// types and the OpenAPI document.
import { z } from 'zod'
import { PUBLIC_EVENT_TYPES } from '../../domain/publicEvents.js'

const deliveryStatus = z
  .enum(['PENDING', 'SUCCEEDED', 'FAILED'])
  .describe(
    'PENDING (queued or being retried), SUCCEEDED (a 2xx arrived), FAILED (retries used up, 410 Gone, or the endpoint was disabled or ' +
      'deleted)',
  )
const trigger = z.enum(['SCHEDULED', 'MANUAL']).describe('SCHEDULED: first send or a retry; MANUAL: a resend or recover')

export const envelopeSchema = z
  .object({
    id: z.string().describe('Event id, evt_ + the stored event id; also the webhook-id header'),
    timestamp: z.string(),
    apiVersion: z.string(),
    organizationId: z.string(),
    type: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .describe('The exact payload every delivery of this message sends')

export const webhookMessageResource = z.object({
  id: z.string().describe('Message id (evt_...), equal to the webhook-id header of its deliveries'),
  type: z.string().describe('Event type'),
  timestamp: z.string().describe('When the event happened'),
  tags: z.array(z.string()).describe('Resource ids named in the payload, for the tag filter'),
  payload: envelopeSchema,
  status: deliveryStatus.optional().describe('Delivery status to the endpoint of the endpointId filter (only with that filter)'),
  attemptCount: z.number().int().optional().describe('Attempts to that endpoint (only with the endpointId filter)'),
  nextAttemptAt: z.string().nullable().optional().describe('Next attempt to that endpoint, or null (only with the endpointId filter)'),
})

export const webhookDeliveryResource = z.object({
  endpointId: z.string(),
  status: deliveryStatus,
  attemptCount: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastResponseStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
})

export const webhookAttemptResource = z.object({
  id: z.string().describe('Attempt id, prefix atmpt_'),
  endpointId: z.string(),
  url: z.string(),
  responseStatusCode: z
    .number()
    .int()
    .describe('HTTP status, or 0 when no response arrived (network error, timeout, refused by egress rules)'),
  responseBody: z.string().describe('First 20 000 bytes of the response body'),
  error: z.string().nullable().describe('Why the attempt failed without a response, or other detail'),
  durationMs: z.number().int().nullable().describe('Null for an attempt whose dispatcher stopped mid-flight'),
  trigger,
  timestamp: z.string().describe('When the attempt started'),
  nextAttemptAt: z.string().nullable().describe('When the next attempt was scheduled after this one, or null'),
})

export const webhookMessageDetailResource = webhookMessageResource.extend({
  deliveries: z.array(webhookDeliveryResource).describe('One per endpoint the message was sent to'),
  attempts: z.array(webhookAttemptResource).describe('Every attempt, oldest first (at most 1 000, the newest)'),
})

export const resendBody = z
  .object({
    endpointId: z.string().max(64).optional().describe('Only this endpoint; omitted: every enabled endpoint subscribed to the type'),
  })
  .nullish()
  .describe('Optional')

export const resendResult = z.object({
  messageId: z.string(),
  endpointIds: z.array(z.string()).describe('Endpoints the message is queued for'),
})

export const recoverBody = z.object({
  since: z.iso.datetime({ offset: true }).describe('Redeliver failed deliveries of messages from this time on'),
  until: z.iso.datetime({ offset: true }).optional().describe('... up to this time (exclusive); default now'),
})

export const recoverResult = z.object({
  id: z.string().describe('Recover request id, prefix rcv_'),
  endpointId: z.string(),
  since: z.string(),
  until: z.string(),
  status: z.enum(['RUNNING', 'COMPLETED']).describe('The redelivery runs in the background'),
})

export const testEventBody = z
  .object({
    eventType: z
      .enum(PUBLIC_EVENT_TYPES)
      .optional()
      .describe('An event type to name in the test payload (data.eventType); default webhook.test'),
  })
  .nullish()
  .describe('Optional')

export const testEventResult = z.object({
  messageId: z
    .string()
    .describe('The test message (type webhook.test); read it and its attempts with GET /v1/webhooks/messages/{messageId}'),
  endpointId: z.string(),
  eventType: z.string(),
})

export type WebhookMessageResource = z.infer<typeof webhookMessageResource>
export type WebhookDeliveryResource = z.infer<typeof webhookDeliveryResource>
export type WebhookAttemptResource = z.infer<typeof webhookAttemptResource>
