// The test event an integrator sends to one endpoint to check a receiver (spec: "test events
// from the console"). A real stored event, so it travels the same subscriber -> message ->
// dispatcher path as every other public event. It lives on a stream of its own per request:
// the endpoint's stream keeps only the endpoint's own history.
import { z } from 'zod'
import { conflict, notFound } from '../errors.js'
import type { WebhookEndpointState } from './decider.js'
import { PUBLIC_EVENT_TYPES, type PublicEventType } from '../publicEvents.js'

export const WebhookTestRequested = z.object({
  endpointId: z.string(),
  organizationId: z.string(),
  /** The type the integrator wants to exercise; the message's type is always webhook.test. */
  eventType: z.enum(PUBLIC_EVENT_TYPES),
  requestedAt: z.string(),
})

export const webhookTestEventSchemas = { WebhookTestRequested } as const

export type WebhookTestRequestedEvent = { type: 'WebhookTestRequested'; data: z.infer<typeof WebhookTestRequested> }

/** Decides a test event for an endpoint loaded from its stream. */
export function decideTestEvent(
  endpoint: WebhookEndpointState,
  command: { organizationId: string; endpointId: string; eventType: PublicEventType; now: string },
): WebhookTestRequestedEvent {
  // Another organization's endpoint is indistinguishable from a missing one.
  if (endpoint.status !== 'active' || endpoint.organizationId !== command.organizationId)
    throw notFound('Webhook endpoint', command.endpointId)
  if (endpoint.disabled)
    throw conflict('webhook_endpoint_disabled', `Webhook endpoint ${command.endpointId} is disabled; enable it to send a test event`)
  return {
    type: 'WebhookTestRequested',
    data: {
      endpointId: command.endpointId,
      organizationId: command.organizationId,
      eventType: command.eventType,
      requestedAt: command.now,
    },
  }
}
