// The public-event mappers of every aggregate of the catalog that has public events (its
// descriptor's `publicEvents`), in one lookup by stored event type, so a new aggregate's events are
// published with no line here and the subscriber finds an event's mapper in one lookup.
import type { PublicEventMapper, PublicEventMappers } from '../domain/publicEvents.js'
import { AGGREGATES } from '../events/catalog.js'

/** Every mapper by the stored event type it maps. */
export type PublicEventLookup = ReadonlyMap<string, PublicEventMapper>

/** One lookup over several aggregates' mappers; two mapping one stored type is a bug, refused here rather than per event. */
export function publicEventLookupOf(mappers: readonly PublicEventMappers[]): PublicEventLookup {
  const lookup = new Map<string, PublicEventMapper>()
  for (const byType of mappers)
    for (const [type, map] of Object.entries(byType)) {
      if (lookup.has(type)) throw new Error(`Stored event type ${type} is mapped by two public event mappers`)
      lookup.set(type, map)
    }
  return lookup
}

/** The mappers of the catalog's aggregates. */
export const registeredPublicEventMappers: readonly PublicEventMappers[] = AGGREGATES.flatMap((aggregate) =>
  aggregate.publicEvents ? [aggregate.publicEvents] : [],
)

export const publicEventMappers: PublicEventLookup = publicEventLookupOf(registeredPublicEventMappers)

/**
 * Stored events whose message goes to one endpoint only, regardless of filters (test events).
 * Returns that endpoint's id, or undefined for a normal fan-out.
 */
export function targetEndpointOf(type: string, data: Record<string, unknown>): string | undefined {
  if (type === 'WebhookTestRequested' && typeof data.endpointId === 'string') return data.endpointId
  return undefined
}
