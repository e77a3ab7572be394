// Applies a batch of events to a group of consumers and advances their checkpoints in ONE
// transaction. The checkpoint rows are locked first: if another process (the CLI beside the server)
// got there before, each consumer applies only the events past its own stored checkpoint. Exactly once.
import { type Kysely, sql } from 'kysely'
import { isKnownEventType, parseEventData } from '../catalog.js'
import { type Position, type RecordedEvent, START } from '../store/port.js'
import { readCheckpoints } from './checkpoints.js'
import { type Consumer, consumerHandles } from './consumer.js'

export { ensureCheckpoints } from './checkpoints.js'

/**
 * A stored checkpoint is behind one this process committed: the database lost commits (batches of
 * derived data commit asynchronously, and a database that crashes loses the last ones, rows and
 * checkpoint together). The caller replays from the stored checkpoints, which are consistent.
 */
export class CheckpointBehindError extends Error {
  override readonly name = 'CheckpointBehindError'
  constructor(readonly stored: ReadonlyMap<string, Position>) {
    super('a consumer checkpoint is behind what this process committed: the database lost recent commits')
  }
}

export type BatchOptions = {
  /** Events an operator skipped: the checkpoints move past them as past an unhandled event. */
  isSkipped?: (eventId: string) => boolean
  /** The checkpoints this process saw commit; one stored below it throws CheckpointBehindError. */
  committed?: ReadonlyMap<string, Position>
  /**
   * False for derived data that can be replayed from the durable event store (projections): the
   * commit does not wait for the WAL flush, which takes an fsync off every command's path.
   */
  synchronousCommit?: boolean
}

/** Registered types parsed and upcast; unregistered ones (benchmarks, tests) as stored. */
const parsed = (e: RecordedEvent): RecordedEvent => (isKnownEventType(e.type) ? { ...e, data: parseEventData(e.type, e.data) } : e)

/** The steps consumers run before the transaction, on what lies past their stored checkpoints (read without a lock). */
async function prepare<DB>(db: Kysely<DB>, consumers: readonly Consumer<DB>[], data: RecordedEvent[]): Promise<void> {
  const preparing = consumers.filter((c) => c.prepare !== undefined)
  if (preparing.length === 0 || data.length === 0) return
  const stored = await readCheckpoints(db)
  for (const consumer of preparing) {
    const from = stored.get(consumer.name) ?? START
    const fresh = data.filter((e) => e.position > from && consumerHandles(consumer, e.type))
    if (fresh.length > 0) await consumer.prepare?.(fresh)
  }
}

/** Returns each consumer's checkpoint after the batch. */
export async function applyBatch<DB>(
  db: Kysely<DB>,
  consumers: readonly Consumer<DB>[],
  events: RecordedEvent[],
  options: BatchOptions = {},
): Promise<Map<string, Position>> {
  const isSkipped = options.isSkipped ?? (() => false)
  const committed = options.committed ?? new Map<string, Position>()
  const last = events[events.length - 1]!.position
  const relevant = events.filter((e) => consumers.some((c) => consumerHandles(c, e.type)) && !isSkipped(e.id))
  if (relevant.length === 0 && consumers.every((c) => c.handles !== undefined)) {
    // Nothing to write: advancing the stored checkpoints over unhandled events can wait (a
    // restart re-reads them and ignores them again). Saves a transaction and an fsync.
    return new Map(consumers.map((c) => [c.name, last]))
  }
  const data = relevant.map(parsed)
  await prepare(db, consumers, data)
  const names = consumers.map((c) => c.name)
  // Four round trips, since every one waits its turn on a busy event loop and each command waits
  // for this batch (read-your-writes): BEGIN with its setting, the checkpoints, the effects, COMMIT.
  return db.connection().execute(async (conn) => {
    // (No parameters: sent as one simple query, both statements in one round trip.)
    await sql.raw(options.synchronousCommit === false ? 'BEGIN; SET LOCAL synchronous_commit TO OFF' : 'BEGIN').execute(conn)
    try {
      // Locks the checkpoints (in name order), reads what each held and moves it to the batch's
      // end in one statement; the effects below commit with it or not at all.
      const { rows } = await sql<{ name: string; previous: Position }>`
        UPDATE consumer_checkpoints c SET position = CASE WHEN o.position < ${last} THEN ${last} ELSE o.position END, updated_at = now()
        FROM (SELECT name, position FROM consumer_checkpoints WHERE name = ANY (${names}::text[]) ORDER BY name FOR UPDATE) o
        WHERE c.name = o.name
        RETURNING c.name, o.position AS previous`.execute(conn)
      const stored = new Map(rows.map((r) => [r.name, r.previous]))
      for (const [name, position] of stored) {
        const seen = committed.get(name)
        if (seen !== undefined && position < seen) throw new CheckpointBehindError(stored)
      }
      const after = new Map<string, Position>()
      for (const consumer of consumers) {
        const from = stored.get(consumer.name)
        if (from === undefined) throw new Error(`checkpoint row missing for ${consumer.name}`)
        const fresh = data.filter((e) => e.position > from && consumerHandles(consumer, e.type))
        if (fresh.length > 0) await consumer.apply?.(conn, fresh)
        after.set(consumer.name, last > from ? last : from)
      }
      await sql.raw('COMMIT').execute(conn)
      return after
    } catch (error) {
      await sql
        .raw('ROLLBACK')
        .execute(conn)
        .catch(() => undefined)
      throw error
    }
  })
}
