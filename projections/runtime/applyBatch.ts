// Applies a batch of events to every projector and advances their checkpoints in ONE transaction.
// The checkpoint rows are locked first: if another process (the CLI beside the server) got there
// before, each projector applies only the events past its own stored checkpoint. Exactly once.
import { type Kysely, sql } from 'kysely'
import { parseEventData } from '../../events/catalog.js'
import type { Position, RecordedEvent } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { type Projector, applyEvents } from './projector.js'

export async function ensureCheckpoints(db: Kysely<ReadDatabase>, names: string[]): Promise<void> {
  if (names.length === 0) return
  await db.insertInto('projection_checkpoints')
    .values(names.map((name) => ({ name, position: '', updated_at: new Date() })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
}

export async function lockCheckpoint(trx: Kysely<ReadDatabase>, name: string): Promise<Position> {
  await ensureCheckpoints(trx, [name])
  const row = await trx.selectFrom('projection_checkpoints').select('position').where('name', '=', name).forUpdate().executeTakeFirstOrThrow()
  return row.position as Position
}

/**
 * A stored checkpoint is behind one this process committed: the database lost commits (projection
 * batches commit asynchronously, and a database that crashes loses the last ones, rows and
 * checkpoint together). The caller replays from the stored checkpoints, which are consistent.
 */
export class CheckpointBehindError extends Error {
  override readonly name = 'CheckpointBehindError'
  constructor(readonly stored: ReadonlyMap<string, Position>) {
    super('a projection checkpoint is behind what this process committed: the database lost recent commits')
  }
}

/**
 * Returns each projector's checkpoint after the batch. Events an operator skipped (`isSkipped`)
 * are passed over: the checkpoints move past them as past an unhandled event. `committed`: the
 * checkpoints this process saw commit; one stored below it throws CheckpointBehindError.
 */
export async function applyBatch(
  db: Kysely<ReadDatabase>,
  projectors: readonly Projector[],
  events: RecordedEvent[],
  isSkipped: (eventId: string) => boolean = () => false,
  committed: ReadonlyMap<string, Position> = new Map(),
): Promise<Map<string, Position>> {
  const last = events[events.length - 1]!.position
  const relevant = events.filter((e) => projectors.some((p) => p.handles.has(e.type)) && !isSkipped(e.id))
  if (relevant.length === 0) {
    // Nothing to write: advancing the stored checkpoints over unhandled events can wait (a
    // restart re-reads them and ignores them again). Saves a transaction and an fsync.
    return new Map(projectors.map((p) => [p.name, last]))
  }
  const parsed = new Map(relevant.map((e) => [e.id, { ...e, data: parseEventData(e.type, e.data) }]))
  const names = projectors.map((p) => p.name)
  // Four round trips, since every one waits its turn on a busy event loop and each command waits
  // for this batch (read-your-writes): BEGIN with its setting, the checkpoints, the rows, COMMIT.
  return db.connection().execute(async (conn) => {
    // Read models are derived data: rows and checkpoint commit atomically, so a crash that loses
    // this commit's last moments loses both, and the projector replays from the durable event
    // store, exactly once. Not waiting for the WAL flush takes an fsync off every command's path.
    // Events, idempotency records and webhook deliveries keep synchronous commit. (No parameters:
    // sent as one simple query, both statements in one round trip.)
    await sql.raw('BEGIN; SET LOCAL synchronous_commit TO OFF').execute(conn)
    try {
      // Locks the checkpoints (in name order), reads what each held and moves it to the batch's
      // end in one statement; the rows below commit with it or not at all.
      const { rows } = await sql<{ name: string; previous: string }>`
        UPDATE projection_checkpoints c SET position = CASE WHEN o.position < ${last} THEN ${last} ELSE o.position END, updated_at = now()
        FROM (SELECT name, position FROM projection_checkpoints WHERE name = ANY (${names}::text[]) ORDER BY name FOR UPDATE) o
        WHERE c.name = o.name
        RETURNING c.name, o.position AS previous`.execute(conn)
      const stored = new Map(rows.map((r) => [r.name, r.previous as Position]))
      for (const [name, position] of stored) {
        const seen = committed.get(name)
        if (seen !== undefined && position < seen) throw new CheckpointBehindError(stored)
      }
      const after = new Map<string, Position>()
      for (const projector of projectors) {
        const from = stored.get(projector.name)
        if (from === undefined) throw new Error(`checkpoint row missing for ${projector.name}`)
        const fresh = relevant.filter((e) => e.position > from && projector.handles.has(e.type))
        await applyEvents(projector, conn, fresh.map((e) => parsed.get(e.id)!))
        after.set(projector.name, last > from ? last : from)
      }
      await sql.raw('COMMIT').execute(conn)
      return after
    } catch (error) {
      await sql.raw('ROLLBACK').execute(conn).catch(() => undefined)
      throw error
    }
  })
}
