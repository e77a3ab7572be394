// The test event an integrator sends to one endpoint to check a receiver (spec: "test events
// from the console"). A real stored event, so it travels the same subscriber -> message ->
// dispatcher path as every other public event. It lives on a stream of its own per request:
// the endpoint's stream keeps only the endpoint's own history.
import { z } from 'zod'
import { conflict, notFound } from '../errors.js'
import type { Decider } from '../decider.js'
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

/** The command: the endpoint, loaded from its own stream, is the fact it is decided on. */
export type RequestTestEvent = {
  type: 'RequestTestEvent'
  organizationId: string
  endpointId: string
  eventType: PublicEventType
  now: string
  endpoint: WebhookEndpointState
}

/** A test request's stream holds its one event: a second request on it is refused (never happens: each has its own id). */
export type WebhookTestState = { requested: boolean }

export const webhookTestDecider: Decider<WebhookTestState, RequestTestEvent, WebhookTestRequestedEvent> = {
  initialState: () => ({ requested: false }),
  evolve: () => ({ requested: true }),
  decide(command, state) {
    if (state.requested) throw conflict('webhook_test_already_requested', 'This test event was requested already')
    return [decideTestEvent(command.endpoint, command)]
  },
}

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
