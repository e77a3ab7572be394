// Rebuilds one projection from position 0 into fresh tables in a side schema while the live ones
// keep serving, then swaps them in within one transaction that holds the checkpoint row (async: the
// live projector resumes exactly where the rebuild stopped) or, inline, the append lock alone: the
// appends wait while the tail is applied and the tables swapped, then write to the new tables.
import { type Kysely, sql } from 'kysely'
import type { EventStore, Position } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { lockCheckpoint, setCheckpoint } from '../../events/consumers/checkpoints.js'
import { type ProjectionContext, type Projector, applyEvents } from './projector.js'
import { parseEventData } from '../../events/catalog.js'
import { loadSkippedIds } from '../../events/consumers/consumerRecords.js'
import { clearDeadLetters } from '../../events/consumers/deadLetters.js'
import { PROJECTIONS_CONSUMER } from './projectionRunner.js'
import { databaseProjectionMode } from './projectionMode.js'
import { IN_TRANSACTION_APPEND_LOCK } from '../../events/store/postgres/appendBatch.js'

export const REBUILD_LIMITS = { batchSize: 1_000, maxBatches: 10_000_000 } as const

export type RebuildResult = { projection: string; events: number; position: Position; durationMs: number }

export type Apply = (work: (db: Kysely<ReadDatabase>) => Promise<void>) => Promise<void>

type Skipped = ReadonlySet<string>

/**
 * Replays $all after `from` (up to `until` when given) into whatever `apply` scopes the projector
 * to, passing over the events an operator skipped; also used by verifyProjection.ts.
 * `pastRunningTransactions`: the caller knows no append is in flight below what it reads (it holds the
 * append lock alone, or `until` was taken while it did), so the reads need not stop at the oldest running
 * transaction, which could be anything's (a consumer's batch) and would end the replay short.
 */
export async function replay(
  store: EventStore,
  apply: Apply,
  projector: Projector,
  ctx: ProjectionContext,
  from: Position,
  skipped: Skipped,
  until?: Position,
  pastRunningTransactions = false,
): Promise<{ position: Position; count: number }> {
  let position = from
  let count = 0
  for (let i = 0; i < REBUILD_LIMITS.maxBatches; i++) {
    const read = await store.readAll({ from: position || undefined, maxCount: REBUILD_LIMITS.batchSize, pastRunningTransactions })
    const events = until === undefined ? read : read.filter((e) => store.comparePositions(e.position, until) <= 0)
    if (events.length === 0) break
    const handled = events
      .filter((e) => projector.handles.has(e.type) && !skipped.has(e.id))
      .map((e) => ({ ...e, data: parseEventData(e) }))
    if (handled.length > 0) await apply((db) => applyEvents(projector, db, handled, ctx))
    count += events.length
    position = events[events.length - 1]!.position
  }
  return { position, count }
}

export class RebuildAlreadyRunningError extends Error {
  override readonly name = 'RebuildAlreadyRunningError'
}

type IndexRow = { indexname: string; indexdef: string }

async function indexesOf(db: Kysely<ReadDatabase>, schema: string, table: string): Promise<IndexRow[]> {
  const result =
    await sql<IndexRow>`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = ${schema} AND tablename = ${table}`.execute(db)
  return result.rows
}

/** An index definition without its own name and schema, to pair a rebuilt index with the live one. */
const shapeOf = (def: string) => def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+/, 'CREATE $1INDEX ON')

export async function rebuildProjection(
  store: EventStore,
  db: Kysely<ReadDatabase>,
  projector: Projector,
  ctx: ProjectionContext,
): Promise<RebuildResult> {
  // One rebuild of a projection at a time, across processes: a second would drop the first's schema.
  return db.connection().execute(async (conn) => {
    const lockKey = `rebuild:${projector.name}`
    const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(hashtext(${lockKey})) AS locked`.execute(conn)
    if (!rows[0]?.locked) throw new RebuildAlreadyRunningError(`A rebuild of ${projector.name} is already running`)
    try {
      return await rebuildUnlocked(store, db, projector, ctx)
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${lockKey}))`.execute(conn)
    }
  })
}

async function rebuildUnlocked(
  store: EventStore,
  db: Kysely<ReadDatabase>,
  projector: Projector,
  ctx: ProjectionContext,
): Promise<RebuildResult> {
  const started = Date.now()
  const schema = `rebuild_${projector.name}`
  await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db)
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(db)
  for (const table of projector.tables) {
    await sql`CREATE TABLE ${sql.id(schema, table)} (LIKE ${sql.id('public', table)} INCLUDING ALL)`.execute(db)
  }
  // The live runner's skips: a rebuild passes over the same events, so it succeeds where it does.
  const skipped = await loadSkippedIds(db, PROJECTIONS_CONSUMER)
  const scoped = db.withSchema(schema)
  // One transaction per batch while the live tables serve; the tail runs inside the swap's.
  const first = await replay(store, (work) => scoped.transaction().execute(work), projector, ctx, START, skipped)

  const inline = (await databaseProjectionMode(db)) === 'inline'
  return db.transaction().execute(async (trx) => {
    // Holding the checkpoint row pauses the live projector; inline, the append lock held alone makes
    // appends wait (each holds it shared until it commits). Then finish the tail, and swap.
    if (inline) await sql`SELECT pg_advisory_xact_lock(${IN_TRANSACTION_APPEND_LOCK})`.execute(trx)
    else await lockCheckpoint(trx, projector.name)
    const scopedTrx = trx.withSchema(schema)
    // Inline, nothing is in flight under the lock: every stored event is read (async, the checkpoint's lock
    // pauses only the projector, so appends may be in flight and the read stays gap-safe).
    const tail = await replay(store, (work) => work(scopedTrx), projector, ctx, first.position, skipped, undefined, inline)
    for (const table of projector.tables) {
      const liveIndexes = await indexesOf(trx, 'public', table)
      await sql`DROP TABLE ${sql.id('public', table)}`.execute(trx)
      await sql`ALTER TABLE ${sql.id(schema, table)} SET SCHEMA public`.execute(trx)
      // LIKE ... INCLUDING ALL names indexes its own way; give them back the names migrations used.
      for (const rebuilt of await indexesOf(trx, 'public', table)) {
        const original = liveIndexes.find((live) => shapeOf(live.indexdef) === shapeOf(rebuilt.indexdef))
        if (original && original.indexname !== rebuilt.indexname) {
          await sql`ALTER INDEX ${sql.id('public', rebuilt.indexname)} RENAME TO ${sql.id(original.indexname)}`.execute(trx)
        }
      }
    }
    await sql`DROP SCHEMA ${sql.id(schema)}`.execute(trx)
    await setCheckpoint(trx, projector.name, tail.position)
    // The rebuilt tables hold every event, its parked ones too (a rebuild stops on one that still
    // fails): its dead letters would otherwise be replayed, and applied, a second time.
    await clearDeadLetters(trx, projector.name)
    return { projection: projector.name, events: first.count + tail.count, position: tail.position, durationMs: Date.now() - started }
  })
}
