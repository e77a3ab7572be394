// Every PublicEventMapper: the mapper of each aggregate of the catalog that has public events
// (its descriptor's `publicEvents`), so a new aggregate's events are published with no line here.
import type { PublicEventMapper } from '../domain/publicEvents.js'
import { AGGREGATES } from '../events/catalog.js'

export const publicEventMappers: readonly PublicEventMapper[] = AGGREGATES.flatMap((aggregate) =>
  aggregate.publicEvents ? [aggregate.publicEvents] : [],
)

/**
 * Stored events whose message goes to one endpoint only, regardless of filters (test events).
 * Returns that endpoint's id, or undefined for a normal fan-out.
 */
export function targetEndpointOf(type: string, data: Record<string, unknown>): string | undefined {
  if (type === 'WebhookTestRequested' && typeof data.endpointId === 'string') return data.endpointId
  return undefined
}
