// What the audit area reads from the event log, for one organization: a resource's events (every
// stream its id names, merged in the order of $all, as an auditor sees them). Made from the event
// store on each request: no table.
import { type AuditEventView, auditEventView } from '../../events/history/auditEventView.js'
import { type StreamRevisions, readMergedPage } from '../../events/history/mergedStreamPage.js'
import { resourceStreams } from '../../events/history/resourceStreams.js'
import type { EventStore } from '../../events/store/port.js'

export type { AuditEventView, StreamRevisions }

/** What the audit reads need of the event store (the service's, behind the event codec: sealed fields open). */
export type AuditStore = Pick<EventStore, 'readStream' | 'comparePositions'>

/** An event of a resource's history, and where each of its streams stands once it is read (the next page's cursor). */
export type HistoryItem = { view: AuditEventView; after: StreamRevisions }

export type AuditReads = ReturnType<typeof auditReads>

export function auditReads(store: AuditStore) {
  return {
    /**
     * Up to `limit + 1` events of the streams of `id` that are the organization's, oldest first, each
     * stream read from its revision in `from`; undefined when none of them is the organization's.
     */
    async history(organizationId: string, id: string, from: StreamRevisions, limit: number): Promise<HistoryItem[] | undefined> {
      const streams = await resourceStreams(store, organizationId, id)
      if (streams.length === 0) return undefined
      const merged = await readMergedPage(store, streams, from, limit)
      return merged.map((m) => ({ view: auditEventView(m.event), after: m.after }))
    },
  }
}
