// Applies a batch of events to a group of consumers and advances their checkpoints in ONE
// transaction. The checkpoint rows are locked first: if another process (the CLI beside the server)
// got there before, each consumer applies only the events past its own stored checkpoint. Exactly once.
// A stream parked for a consumer (parkedStreams.ts) is not applied by it: its events become that
// consumer's dead letters, in the same transaction, while the group's other consumers apply them.
import { type Kysely, sql } from 'kysely'
import { isKnownEventType, parseEventData } from '../catalog.js'
import { type Position, type RecordedEvent, START } from '../store/port.js'
import { readCheckpointStates } from './checkpoints.js'
import { type Consumer, consumerHandles } from './consumer.js'
import { asConsumer } from './consumerFailedError.js'
import { type NewDeadLetter, writeDeadLetters } from './deadLetters.js'
import { type ParkRequest, blockedStreams, splitFresh } from './parkedStreams.js'

export { ensureCheckpoints } from './checkpoints.js'
export type { ParkRequest } from './parkedStreams.js'

export const APPLY_BATCH_LIMITS = {
  /** Batches prepared again because the parked streams changed between prepare and the transaction. */
  maxPreparedAgain: 3,
} as const

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

/** A prepare consumer would apply an event it did not prepare (a replay emptied its stream meanwhile): prepare again. */
class PreparedSetChangedError extends Error {
  override readonly name = 'PreparedSetChangedError'
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
  /** The group's name, written on its dead letters. */
  group?: string
  /** Events the guard gave up on, each for one consumer: parked ('failed') by this batch. */
  parks?: readonly ParkRequest[]
}

/** Registered types parsed and upcast; unregistered ones (benchmarks, tests) as stored. */
export const parsedForConsumers = (e: RecordedEvent): RecordedEvent => (isKnownEventType(e.type) ? { ...e, data: parseEventData(e) } : e)

/**
 * The steps consumers run before the transaction, on what lies past their stored checkpoints (read
 * without a lock) and outside the streams parked for them; returns the ids each one prepared.
 *
 * Why a stream parked meanwhile cannot be prepared out of order: the checkpoints are read first,
 * then the letters, and a park commits its letter with the checkpoint move past it. A park this read
 * misses therefore committed after the checkpoint read, so its event lies past the checkpoint seen
 * here: it is in this batch, and this prepare runs it before any later event of its stream, and stops
 * there if it fails (a consumer's prepare goes in commit order and throws at the first failure).
 * The transaction then finds the stream parked and writes the later events it prepared as 'behind':
 * their effects are idempotent, and a replay runs them again after the letter, in order.
 */
async function prepare<DB>(
  db: Kysely<DB>,
  consumers: readonly Consumer<DB>[],
  data: RecordedEvent[],
  group: string,
  parks: readonly ParkRequest[],
): Promise<Map<string, Set<string>>> {
  const prepared = new Map<string, Set<string>>()
  const preparing = consumers.filter((c) => c.prepare !== undefined)
  if (preparing.length === 0 || data.length === 0) return prepared
  const stored = await readCheckpointStates(db)
  const withLetters = preparing.filter((c) => (stored.get(c.name)?.parkedLetters ?? 0) > 0).map((c) => c.name)
  const blocked = await blockedStreams(db, withLetters, data, parks)
  for (const consumer of preparing) {
    const from = stored.get(consumer.name)?.position ?? START
    const fresh = data.filter((e) => e.position > from && consumerHandles(consumer, e.type))
    const { apply } = splitFresh(consumer.name, group, fresh, blocked, parks)
    prepared.set(consumer.name, new Set(apply.map((e) => e.id)))
    if (apply.length > 0) await asConsumer(consumer, apply, () => consumer.prepare!(apply))
  }
  return prepared
}

/** Returns each consumer's checkpoint after the batch. */
export async function applyBatch<DB>(
  db: Kysely<DB>,
  consumers: readonly Consumer<DB>[],
  events: RecordedEvent[],
  options: BatchOptions = {},
): Promise<Map<string, Position>> {
  const isSkipped = options.isSkipped ?? (() => false)
  const last = events[events.length - 1]!.position
  const relevant = events.filter((e) => consumers.some((c) => consumerHandles(c, e.type)) && !isSkipped(e.id))
  if (relevant.length === 0 && consumers.every((c) => c.handles !== undefined)) {
    // Nothing to write: advancing the stored checkpoints over unhandled events can wait (a
    // restart re-reads them and ignores them again). Saves a transaction and an fsync.
    return new Map(consumers.map((c) => [c.name, last]))
  }
  const data = relevant.map(parsedForConsumers)
  for (let round = 1; ; round++) {
    const prepared = await prepare(db, consumers, data, options.group ?? '', options.parks ?? [])
    try {
      return await transact(db, consumers, data, last, prepared, options)
    } catch (error) {
      if (!(error instanceof PreparedSetChangedError) || round >= APPLY_BATCH_LIMITS.maxPreparedAgain) throw error
    }
  }
}

async function transact<DB>(
  db: Kysely<DB>,
  consumers: readonly Consumer<DB>[],
  data: RecordedEvent[],
  last: Position,
  prepared: ReadonlyMap<string, ReadonlySet<string>>,
  options: BatchOptions,
): Promise<Map<string, Position>> {
  const committed = options.committed ?? new Map<string, Position>()
  const parks = options.parks ?? []
  const names = consumers.map((c) => c.name)
  // Four round trips, since every one waits its turn on a busy event loop and each command waits
  // for this batch (read-your-writes): BEGIN with its setting, the checkpoints, the effects, COMMIT.
  // A fifth and sixth only while something is parked: the letters' streams, and new letters.
  return db.connection().execute(async (conn) => {
    // (No parameters: sent as one simple query, both statements in one round trip.)
    await sql.raw(options.synchronousCommit === false ? 'BEGIN; SET LOCAL synchronous_commit TO OFF' : 'BEGIN').execute(conn)
    try {
      // Locks the checkpoints (in name order), reads what each held and moves it to the batch's
      // end in one statement; the effects below commit with it or not at all. The letter counts
      // come from the locked rows, so they are the latest committed (every letter write holds the
      // row lock); the letters themselves are read by a later statement, which sees them too.
      const { rows } = await sql<{ name: string; previous: Position; parked_letters: number }>`
        UPDATE consumer_checkpoints c SET position = CASE WHEN o.position < ${last} THEN ${last} ELSE o.position END, updated_at = now()
        FROM (SELECT name, position, parked_letters FROM consumer_checkpoints WHERE name = ANY (${names}::text[])
          ORDER BY name FOR UPDATE) o
        WHERE c.name = o.name
        RETURNING c.name, o.position AS previous, o.parked_letters`.execute(conn)
      const stored = new Map(rows.map((r) => [r.name, r.previous]))
      for (const [name, position] of stored) {
        const seen = committed.get(name)
        if (seen !== undefined && position < seen) throw new CheckpointBehindError(stored)
      }
      const withLetters = rows.filter((r) => r.parked_letters > 0).map((r) => r.name)
      const blocked = withLetters.length > 0 || parks.length > 0 ? await blockedStreams(conn, withLetters, data, parks) : new Map()
      const after = new Map<string, Position>()
      const letters: NewDeadLetter[] = []
      for (const consumer of consumers) {
        const from = stored.get(consumer.name)
        if (from === undefined) throw new Error(`checkpoint row missing for ${consumer.name}`)
        const fresh = data.filter((e) => e.position > from && consumerHandles(consumer, e.type))
        const split = splitFresh(consumer.name, options.group ?? '', fresh, blocked, parks)
        const preparedHere = prepared.get(consumer.name)
        if (consumer.prepare && split.apply.some((e) => !preparedHere?.has(e.id))) throw new PreparedSetChangedError(consumer.name)
        if (split.apply.length > 0 && consumer.apply) await asConsumer(consumer, split.apply, () => consumer.apply!(conn, split.apply))
        letters.push(...split.letters)
        after.set(consumer.name, last > from ? last : from)
      }
      await writeDeadLetters(conn, letters)
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
