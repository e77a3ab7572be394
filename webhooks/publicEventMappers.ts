// Every registered PublicEventMapper. To publish an aggregate's events, import its mapper from
// `domain/<aggregate>/publicEvents.ts` and add it to the list: one import, one entry.
import { customerPublicEvents } from '../domain/customer/publicEvents.js'
import type { PublicEventMapper } from '../domain/publicEvents.js'
import { webhookEndpointPublicEvents } from '../domain/webhook-endpoint/publicEvents.js'

export const publicEventMappers: readonly PublicEventMapper[] = [
  webhookEndpointPublicEvents,
  customerPublicEvents,
]

/**
 * Stored events whose message goes to one endpoint only, regardless of filters (test events).
 * Returns that endpoint's id, or undefined for a normal fan-out.
 */
export function targetEndpointOf(type: string, data: Record<string, unknown>): string | undefined {
  if (type === 'WebhookTestRequested' && typeof data.endpointId === 'string') return data.endpointId
  return undefined
}
