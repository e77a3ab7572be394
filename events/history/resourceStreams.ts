// The streams an id names, for auditors: `<category>-<id>` for every aggregate of the catalog (one id
// may name several: an FX trade and its transfer, an agent and its spend, a customer and its trade
// slots), those that exist and belong to the organization. A stream's first event names its
// organization (every command stamps it): one of another organization, or with none, is not the caller's.
import { AGGREGATES } from '../catalog.js'
import type { EventStore } from '../store/port.js'
import { streamName } from '../streams.js'

export type ResourceStream = {
  /** The aggregate's stream category: the key of this stream in a resource's history. */
  category: string
  stream: string
}

/** Every stream `id` could name, one per aggregate of the catalog. */
export function candidateStreams(id: string): ResourceStream[] {
  return AGGREGATES.map((aggregate) => ({ category: aggregate.streamCategory, stream: streamName(aggregate, id) }))
}

/** Whether a stream's first event was recorded for the organization. */
export async function streamOfOrganization(
  store: Pick<EventStore, 'readStream'>,
  stream: string,
  organizationId: string,
): Promise<boolean> {
  const [first] = await store.readStream(stream, { maxCount: 1 })
  return first !== undefined && first.metadata.organizationId === organizationId
}

/**
 * The streams of `id` that are the organization's, in catalog order. One read of at most one event
 * per aggregate, all at once (the Postgres store answers reads that arrive together in one statement).
 */
export async function resourceStreams(
  store: Pick<EventStore, 'readStream'>,
  organizationId: string,
  id: string,
): Promise<ResourceStream[]> {
  const candidates = candidateStreams(id)
  const owned = await Promise.all(candidates.map((candidate) => streamOfOrganization(store, candidate.stream, organizationId)))
  return candidates.filter((_, i) => owned[i])
}
