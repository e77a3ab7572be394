// Folds one stream's events up to a point (a revision, or a time), for a read of a resource as it
// stood then. Read by pages in revision order; each event's data parsed (and upcast) as every
// consumer sees it; stopped at the point, and at a named bound: a request never folds a history
// without end (a hot balance account holds millions of postings).
import { parseEventData } from '../catalog.js'
import { type EventStore, type RecordedEvent, STORE_LIMITS } from '../store/port.js'

export const FOLD_LIMITS = {
  /** Events one request folds at most (about a second of parsing and folding here). */
  maxEvents: 100_000,
  pageSize: STORE_LIMITS.maxReadCount,
} as const

/** Exactly one of them: the stream up to this revision (inclusive), or every event recorded at or before this time. */
export type FoldPoint = { revision: bigint } | { asOf: Date }

export type FoldOutcome<S> =
  /** The stream is empty, or not the organization's. */
  | { kind: 'not_found' }
  /** Its first event was recorded after `asOf`. */
  | { kind: 'not_yet_created'; firstRecordedAt: Date }
  | { kind: 'revision_out_of_range'; lastRevision: bigint }
  | { kind: 'too_long'; maxEvents: number }
  /** `last`: the last event folded, the one the state stands at. */
  | { kind: 'folded'; state: S; last: RecordedEvent }

/** Whether `event` lies past the point (the fold stops before it). */
function pastPoint(point: FoldPoint, event: RecordedEvent): boolean {
  return 'revision' in point ? event.revision > point.revision : event.recordedAt.getTime() > point.asOf.getTime()
}

/**
 * Folds `stream` with `apply` from `initial` up to `point`, when its first event is the organization's.
 * By time, the fold stops at the first event recorded after `asOf` (revision order is the stream's order).
 * `limits`: FOLD_LIMITS, smaller in tests.
 */
export async function foldStream<S>(
  store: Pick<EventStore, 'readStream'>,
  stream: string,
  organizationId: string,
  point: FoldPoint,
  initial: S,
  apply: (state: S, event: RecordedEvent) => S,
  limits: { maxEvents: number; pageSize: number } = FOLD_LIMITS,
): Promise<FoldOutcome<S>> {
  let state = initial
  let last: RecordedEvent | undefined
  let from = 0n
  let folded = 0
  for (;;) {
    const wanted = 'revision' in point ? Number(point.revision - from + 1n) : limits.pageSize
    const page = await store.readStream(stream, { fromRevision: from, maxCount: Math.max(1, Math.min(wanted, limits.pageSize)) })
    if (from === 0n && page[0]?.metadata.organizationId !== organizationId) return { kind: 'not_found' }
    for (const event of page) {
      if (pastPoint(point, event)) {
        if (last === undefined) return { kind: 'not_yet_created', firstRecordedAt: event.recordedAt }
        return { kind: 'folded', state, last }
      }
      if (++folded > limits.maxEvents) return { kind: 'too_long', maxEvents: limits.maxEvents }
      state = apply(state, { ...event, data: parseEventData(event) })
      last = event
    }
    const reached = 'revision' in point && last !== undefined && last.revision >= point.revision
    if (reached || page.length < Math.min(wanted, limits.pageSize)) break
    from = page[page.length - 1]!.revision + 1n
  }
  // The loop read the first page, whose first event is the organization's: `last` is set.
  if (last === undefined) return { kind: 'not_found' }
  if ('revision' in point && last.revision < point.revision) return { kind: 'revision_out_of_range', lastRevision: last.revision }
  return { kind: 'folded', state, last }
}
