// Replays $all into whatever tables `apply` scopes a projector to (a rebuild's fresh tables, a kept
// version catching up, a verification's shadow), passing over the events an operator skipped. The
// next batch is read while this one is applied: reading and decoding take about as long as applying,
// and they use different connections, so the two overlap (the next batch is parsed, too, while this
// one's statements run).
import type { Kysely } from 'kysely'
import { parseEventData } from '../../events/catalog.js'
import type { EventStore, Position, RecordedEvent } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { type ProjectionContext, type Projector, applyEvents } from './projector.js'

export const REPLAY_LIMITS = {
  /** Events read and applied in one batch (one transaction while the live tables serve). */
  batchSize: 1_000,
  /** Batches in one replay: 10 billion events, beyond any log this service keeps. */
  maxBatches: 10_000_000,
} as const

/** Runs one batch's work on the tables; `through` is the position the batch ends at (to record with the rows). */
export type Apply = (work: (db: Kysely<ReadDatabase>) => Promise<void>, through: Position) => Promise<void>

/** How far a replay has come: events read from $all (handled or not) and the last one's position. */
export type ReplayProgress = { events: number; position: Position }

export type ReplayOptions = {
  from: Position
  /** Event ids an operator skipped for the projections (consumer_skips): passed over, as the live projectors do. */
  skipped: ReadonlySet<string>
  /** The last position to apply (inclusive); the head when not given. */
  until?: Position
  /**
   * Reads past the oldest running transaction. Only for a caller that knows no append is in flight below
   * what it reads: it holds the append lock alone, or `until` was taken while it did. A gap-safe read (the
   * default) could otherwise stop short behind an unrelated transaction (a consumer's batch).
   */
  pastRunningTransactions?: boolean
  /** Events read and applied at once; REPLAY_LIMITS.batchSize when not given (at most STORE_LIMITS.maxReadCount). */
  batchSize?: number
  /** Called after each batch (a progress report); awaited. */
  onBatch?: (progress: ReplayProgress) => Promise<void> | void
}

/** A batch read ahead: the events within the bound, and the handled ones parsed (done while the previous batch applies). */
type ReadBatch = { events: number; through: Position | undefined; last: boolean; handled: RecordedEvent[] }

export async function replay(
  store: EventStore,
  apply: Apply,
  projector: Projector,
  ctx: ProjectionContext,
  options: ReplayOptions,
): Promise<ReplayProgress> {
  const { until, skipped, pastRunningTransactions = false } = options
  const batchSize = options.batchSize ?? REPLAY_LIMITS.batchSize
  const read = async (from: Position): Promise<ReadBatch> => {
    const batch = await store.readAll({ from: from || undefined, maxCount: batchSize, pastRunningTransactions })
    const within = until === undefined ? batch : batch.filter((e) => store.comparePositions(e.position, until) <= 0)
    const handled = within
      .filter((e) => projector.handles.has(e.type) && !skipped.has(e.id))
      .map((e) => ({ ...e, data: parseEventData(e) }))
    // A short batch, or one cut by the bound, is the last: reading on would find the head or pass the bound.
    const last = within.length < batch.length || batch.length < batchSize
    return { events: within.length, through: within[within.length - 1]?.position, last, handled }
  }
  let position = options.from
  let events = 0
  let next = read(position)
  try {
    for (let i = 0; i < REPLAY_LIMITS.maxBatches; i++) {
      const batch = await next
      if (batch.through === undefined) break
      const through = batch.through
      next = batch.last ? Promise.resolve({ events: 0, through: undefined, last: true, handled: [] }) : read(through)
      if (batch.handled.length > 0) await apply((db) => applyEvents(projector, db, batch.handled, ctx), through)
      events += batch.events
      position = through
      await options.onBatch?.({ events, position })
    }
  } finally {
    // A read still in flight when an apply failed: its outcome is of no use, and must not go unhandled.
    next.catch(() => undefined)
  }
  return { events, position }
}
