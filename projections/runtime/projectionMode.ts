// Which way this database's read models are kept, settled once per database (migration 0024):
// - 'inline' (the Postgres store's default): projectors run in the events' own transaction
//   (inlineProjections.ts); nothing to wait for, no checkpoint to move;
// - 'async': the consumer runtime applies $all to them (projectionRunner.ts): EventStoreDB, which
//   cannot share a transaction, or a database made so (PROJECTIONS=async, the bench's comparison).
// The first process on a database records the mode; every later one follows it, whatever it was
// asked, because two processes keeping one read model two ways would apply events twice. A database
// from before the modes (its projectors kept asynchronously) turns inline on its first start here:
// under the lock that makes inline appends wait, the asynchronous projectors catch up to the head,
// then the mode is recorded. One with dead letters parked for a projector stays asynchronous (its
// parked streams must be replayed in order by the runtime that parked them).
import { type Kysely, sql } from 'kysely'
import { readCheckpoints } from '../../events/consumers/checkpoints.js'
import { START, type Position } from '../../events/store/port.js'
import { IN_TRANSACTION_APPEND_LOCK } from '../../events/store/postgres/appendBatch.js'
import type { ReadDatabase } from '../schema.js'
import { eventsHead } from './eventsHead.js'

/**
 * The catch-up before turning inline reads gap-safe, so an unrelated transaction still running (a consumer's
 * batch) can end it short of the head: it is tried again, this many times, this far apart, before the database
 * stays asynchronous for this start.
 */
export const SETTLE_LIMITS = { catchUpTries: 50, retryDelayMs: 100 } as const

export type ProjectionMode = 'inline' | 'async'

export type SettledMode = { mode: ProjectionMode; note?: string }

async function recordedMode(db: Kysely<ReadDatabase>): Promise<ProjectionMode | undefined> {
  const { rows } = await sql<{ mode: ProjectionMode }>`SELECT mode FROM projection_mode`.execute(db)
  return rows[0]?.mode
}

/** The mode recorded for the database `db` opens; async when none is (a database before modes). */
export async function databaseProjectionMode(db: Kysely<ReadDatabase>): Promise<ProjectionMode> {
  return (await recordedMode(db)) ?? 'async'
}

async function parkedForProjectors(db: Kysely<ReadDatabase>, projectorNames: readonly string[]): Promise<number> {
  if (projectorNames.length === 0) return 0
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM consumer_parked WHERE consumer IN (${sql.join(projectorNames)})`.execute(db)
  return Number(rows[0]?.n ?? 0)
}

export async function settleProjectionMode(deps: {
  db: Kysely<ReadDatabase>
  /** Whether the event store can run a step in its append transaction (Postgres). */
  inlineCapable: boolean
  /** What the configuration asks of a new database (PROJECTIONS); inline when not said. */
  wanted: ProjectionMode | undefined
  projectorNames: readonly string[]
  /** Brings the asynchronous projectors to the head of $all (run under the append lock before turning inline). */
  catchUpAsync: () => Promise<void>
  comparePositions: (a: Position, b: Position) => number
}): Promise<SettledMode> {
  const existing = await recordedMode(deps.db)
  if (existing === 'async' || (existing === 'inline' && deps.inlineCapable)) {
    const asked = deps.wanted && deps.wanted !== existing ? `; PROJECTIONS=${deps.wanted} applies to new databases only` : ''
    return { mode: existing, ...(asked ? { note: `read models kept ${existing} on this database${asked}` } : {}) }
  }
  if (existing === 'inline') throw new Error('This database keeps its read models inline, which only the Postgres event store can do')
  const wanted: ProjectionMode = deps.inlineCapable ? (deps.wanted ?? 'inline') : 'async'
  if (wanted === 'async') {
    await sql`INSERT INTO projection_mode (mode) VALUES ('async') ON CONFLICT DO NOTHING`.execute(deps.db)
    return { mode: (await recordedMode(deps.db)) ?? 'async' }
  }
  const parked = await parkedForProjectors(deps.db, deps.projectorNames)
  if (parked > 0) {
    return { mode: 'async', note: `read models stay async: ${parked} dead letters are parked for projectors (replay them, then restart)` }
  }
  // Session lock on one connection: inline appends of other processes wait while the tail is applied.
  return deps.db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${IN_TRANSACTION_APPEND_LOCK})`.execute(conn)
    try {
      const raced = await recordedMode(conn)
      if (raced) return { mode: raced }
      // Under the lock no append is in flight, so the head read now is final until the lock is released.
      const head = await eventsHead(conn)
      for (let attempt = 1; attempt <= SETTLE_LIMITS.catchUpTries; attempt++) {
        await deps.catchUpAsync()
        const checkpoints = await readCheckpoints(conn)
        const behind = deps.projectorNames.filter((name) => deps.comparePositions(checkpoints.get(name) ?? START, head) < 0)
        if (behind.length === 0) {
          await sql`INSERT INTO projection_mode (mode) VALUES ('inline')`.execute(conn)
          return { mode: 'inline' as const }
        }
        await new Promise((resolve) => setTimeout(resolve, SETTLE_LIMITS.retryDelayMs))
      }
      return { mode: 'async' as const, note: 'read models stay async for this start: the projectors did not reach the head in time' }
    } finally {
      await sql`SELECT pg_advisory_unlock(${IN_TRANSACTION_APPEND_LOCK})`.execute(conn)
    }
  })
}
