// What the audit area reads from the event log, for one organization: a resource's events (every
// stream its id names, merged in the order of $all, as an auditor sees them), and a resource folded
// to a revision or a time (resourceFolds.ts). Made from the event store on each request: no table.
import { type AuditEventView, auditEventView } from '../../events/history/auditEventView.js'
import { type FoldOutcome, type FoldPoint, foldStream } from '../../events/history/foldStream.js'
import { type StreamRevisions, readMergedPage } from '../../events/history/mergedStreamPage.js'
import { resourceStreams } from '../../events/history/resourceStreams.js'
import type { EventStore } from '../../events/store/port.js'
import { streamName } from '../../events/streams.js'
import { type AuditResourceType, type FoldGap, type FoldedRow, RESOURCE_FOLDS, type RunningFold } from './resourceFolds.js'

export type { AuditEventView, FoldPoint, StreamRevisions }

/** What the audit reads need of the event store (the service's, behind the event codec: sealed fields open). */
export type AuditStore = Pick<EventStore, 'readStream' | 'comparePositions'>

/** An event of a resource's history, and where each of its streams stands once it is read (the next page's cursor). */
export type HistoryItem = { view: AuditEventView; after: StreamRevisions }

/** A resource as it stood: its row (or why it has none), and the event it stands at. */
export type AsOfOutcome<Row> =
  | Exclude<FoldOutcome<unknown>, { kind: 'folded' }>
  | { kind: 'folded'; row: Row | FoldGap; stream: string; revision: bigint; recordedAt: Date }

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

    /** The resource `id` of `type` folded from its stream up to `point`, when that stream is the organization's. */
    async asOf<T extends AuditResourceType>(
      organizationId: string,
      id: string,
      type: T,
      point: FoldPoint,
    ): Promise<AsOfOutcome<FoldedRow[T]>> {
      const fold = RESOURCE_FOLDS[type]
      const stream = streamName({ streamCategory: fold.category }, id)
      const outcome = await foldStream<RunningFold<FoldedRow[T]>>(
        store,
        stream,
        organizationId,
        point,
        fold.start(id),
        (running, event) => {
          running.apply(event)
          return running
        },
      )
      if (outcome.kind !== 'folded') return outcome
      return { kind: 'folded', row: outcome.state.finish(), stream, revision: outcome.last.revision, recordedAt: outcome.last.recordedAt }
    },
  }
}
