// A resource's events for an operator: the audit history (events/history/) of every stream the id
// names, whichever organization's, merged in the order of $all and shown as an auditor sees them
// (secrets redacted, sensitive fields masked, an erased customer's [erased]: auditEventView.ts).
import { type AuditEventView, auditEventView } from '../../events/history/auditEventView.js'
import { type StreamRevisions, readMergedPage } from '../../events/history/mergedStreamPage.js'
import { candidateStreams } from '../../events/history/resourceStreams.js'
import type { EventStore } from '../../events/store/port.js'

export type OperatorHistoryItem = { view: AuditEventView; organizationId: string | null; after: StreamRevisions }

/**
 * Up to `limit + 1` events of the streams of `id` that exist, oldest first, each read from its
 * revision in `from`; undefined when no stream of any organization has that id.
 */
export async function operatorResourceHistory(
  store: Pick<EventStore, 'readStream' | 'comparePositions'>,
  id: string,
  from: StreamRevisions,
  limit: number,
): Promise<OperatorHistoryItem[] | undefined> {
  const candidates = candidateStreams(id)
  // One read of at most one event per aggregate, all at once, as the audit reads do.
  const firsts = await Promise.all(candidates.map((candidate) => store.readStream(candidate.stream, { maxCount: 1 })))
  const streams = candidates.filter((_, i) => firsts[i]!.length > 0)
  if (streams.length === 0) return undefined
  const merged = await readMergedPage(store, streams, from, limit)
  return merged.map((m) => ({ view: auditEventView(m.event), organizationId: m.event.metadata.organizationId ?? null, after: m.after }))
}
