// Verifies projections: replays $all from position zero into shadow copies of a projection's
// tables and compares them row by row with the live ones at the live checkpoint.
//
// The comparison runs in a repeatable-read transaction whose first statement reads the live
// checkpoint, so the live rows it sees are exactly those of that checkpoint (rows and checkpoint
// commit together, events/consumers/applyBatch.ts), whatever a running server does meanwhile. The shadow is first
// brought up to the latest checkpoint in short transactions of its own; the comparing transaction
// then writes nothing when no handled event came in between. That matters: a transaction that
// writes holds back every $all reader of the cluster until it ends (reads.ts), so a long one would
// stall the server's projections. Only when the live projection keeps moving past every attempt
// does the last one replay the short tail inside the comparing transaction.
//
// The shadow tables are temporary tables (pg_temp) on a connection of their own that is closed at
// the end: nothing is written where another session can see it, and no live projector is paused.
// While comparing, the transaction holds share locks on the live tables (a rebuild's swap waits).
import { type Kysely, sql } from 'kysely'
import type { EventStore, Position } from '../../events/store/port.js'
import { START, STORE_LIMITS } from '../../events/store/port.js'
import { openReadDatabase } from '../database.js'
import type { ReadDatabase } from '../schema.js'
import type { ProjectionContext, Projector } from './projector.js'
import { readCheckpoint } from '../../events/consumers/checkpoints.js'
import { loadSkippedIds } from '../../events/consumers/consumerRecords.js'
import { PROJECTIONS_CONSUMER } from './projectionRunner.js'
import { replay } from './replay.js'
import { type ProjectionMode, databaseProjectionMode } from './projectionMode.js'
import { eventsHead } from './eventsHead.js'
import { IN_TRANSACTION_APPEND_LOCK } from '../../events/store/postgres/appendBatch.js'

export const VERIFY_LIMITS = {
  /** Differences listed per table; the count is always complete. */
  sampleSize: 10,
  /** Snapshots tried before the tail is replayed inside the comparing transaction. */
  maxSnapshotTries: 20,
} as const

/** Where a row differs: only in the rebuild (missing from live), only live (unexpected), or in both with other values. */
export type RowDifference = {
  kind: 'missing' | 'unexpected' | 'changed'
  /** The row's primary key; values are never printed, they may hold personal data. */
  key: Record<string, unknown>
  /** For 'changed': the columns whose values differ. */
  columns?: string[]
}

export type TableVerification = { table: string; liveRows: number; rebuiltRows: number; differences: number; sample: RowDifference[] }

export type VerifyResult = {
  projection: string
  /** The live checkpoint both sides were compared at ('' before any event). */
  position: Position
  /** Events of $all replayed up to that position. */
  events: number
  rowsCompared: number
  differences: number
  tables: TableVerification[]
  durationMs: number
}

async function primaryKeyOf(db: Kysely<ReadDatabase>, table: string): Promise<string[]> {
  const { rows } = await sql<{ column: string }>`
    SELECT a.attname AS column FROM pg_index i
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
    WHERE i.indrelid = ${`public.${table}`}::regclass AND i.indisprimary
    ORDER BY array_position(i.indkey, a.attnum)`.execute(db)
  if (rows.length === 0) throw new Error(`projections verify compares rows by primary key, and ${table} has none`)
  return rows.map((r) => r.column)
}

type DiffRow = { live: Record<string, unknown> | null; rebuilt: Record<string, unknown> | null; total: string }

function describe(row: DiffRow, key: string[]): RowDifference {
  const side = (row.live ?? row.rebuilt)!
  const keyOf = Object.fromEntries(key.map((column) => [column, side[column]]))
  if (row.live === null) return { kind: 'missing', key: keyOf }
  if (row.rebuilt === null) return { kind: 'unexpected', key: keyOf }
  const live = row.live
  const rebuilt = row.rebuilt
  const columns = Object.keys({ ...live, ...rebuilt }).filter((c) => JSON.stringify(live[c]) !== JSON.stringify(rebuilt[c]))
  return { kind: 'changed', key: keyOf, columns }
}

async function compareTable(db: Kysely<ReadDatabase>, table: string): Promise<TableVerification> {
  const key = await primaryKeyOf(db, table)
  const live = sql.id('public', table)
  const rebuilt = sql.id('pg_temp', table)
  const joinOn = sql.join(
    key.map((c) => sql`l.${sql.id(c)} = r.${sql.id(c)}`),
    sql` AND `,
  )
  const present = (alias: 'l' | 'r') => sql`${sql.id(alias, key[0]!)} IS NOT NULL`
  // jsonb of each whole row: equal values compare equal whatever their column types.
  const { rows } = await sql<DiffRow>`
    SELECT CASE WHEN ${present('l')} THEN to_jsonb(l) END AS live, CASE WHEN ${present('r')} THEN to_jsonb(r) END AS rebuilt,
      count(*) OVER () AS total
    FROM ${live} l FULL JOIN ${rebuilt} r ON ${joinOn}
    WHERE NOT (${present('l')} AND ${present('r')} AND to_jsonb(l) = to_jsonb(r))
    ORDER BY coalesce(${sql.id('l', key[0]!)}, ${sql.id('r', key[0]!)})
    LIMIT ${VERIFY_LIMITS.sampleSize}`.execute(db)
  const counts = await sql<{
    live: string
    rebuilt: string
  }>`SELECT (SELECT count(*) FROM ${live}) AS live, (SELECT count(*) FROM ${rebuilt}) AS rebuilt`.execute(db)
  return {
    table,
    liveRows: Number(counts.rows[0]!.live),
    rebuiltRows: Number(counts.rows[0]!.rebuilt),
    differences: Number(rows[0]?.total ?? 0),
    sample: rows.map((r) => describe(r, key)),
  }
}

/**
 * Where the live rows are: `bound` outside a snapshot (where to catch the shadow up to); `snapshot`
 * as the first statement of the comparing transaction, which takes its snapshot. Async: the
 * projector's checkpoint both times. Inline: the events' head, the snapshot's taken while the append
 * lock is held alone on a connection of its own (readModelSnapshot.ts says why).
 */
type LivePosition = {
  bound(conn: Kysely<ReadDatabase>, name: string): Promise<Position>
  snapshot(conn: Kysely<ReadDatabase>, name: string): Promise<Position>
}

const checkpointPosition: LivePosition = { bound: readCheckpoint, snapshot: readCheckpoint }

function headPosition(lockDb: Kysely<ReadDatabase>): LivePosition {
  return {
    bound: (conn) => eventsHead(conn),
    snapshot: (conn) =>
      lockDb.connection().execute(async (lock) => {
        await sql`SELECT pg_advisory_lock(${IN_TRANSACTION_APPEND_LOCK})`.execute(lock)
        try {
          return await eventsHead(conn)
        } finally {
          await sql`SELECT pg_advisory_unlock(${IN_TRANSACTION_APPEND_LOCK})`.execute(lock)
        }
      }),
  }
}

/** True when $all holds an event the projector handles after `from`, up to `until`. */
async function handledBetween(
  store: EventStore,
  projector: Projector,
  skipped: ReadonlySet<string>,
  from: Position,
  until: Position,
): Promise<boolean> {
  let position = from
  for (;;) {
    // `until` is a snapshot's position: nothing below it was in flight (the checkpoint, or the head under the lock).
    const read = await store.readAll({ from: position || undefined, maxCount: STORE_LIMITS.maxReadCount, pastRunningTransactions: true })
    const events = read.filter((e) => store.comparePositions(e.position, until) <= 0)
    if (events.some((e) => projector.handles.has(e.type) && !skipped.has(e.id))) return true
    if (events.length < read.length || events.length === 0) return false
    position = events[events.length - 1]!.position
  }
}

async function verifyOne(
  store: EventStore,
  conn: Kysely<ReadDatabase>,
  projector: Projector,
  ctx: ProjectionContext,
  maxSnapshotTries: number,
  live: LivePosition,
): Promise<VerifyResult> {
  const started = Date.now()
  for (const table of projector.tables) {
    await sql`CREATE TEMP TABLE ${sql.id(table)} (LIKE ${sql.id('public', table)} INCLUDING ALL)`.execute(conn)
  }
  const shadow = conn.withSchema('pg_temp')
  // The live projection passed over what an operator skipped: the replay must too.
  const skipped = await loadSkippedIds(conn, PROJECTIONS_CONSUMER)
  try {
    let shadowAt: Position = START
    let events = 0
    for (let attempt = 1; ; attempt++) {
      // Catch up in short transactions (one per replayed batch) to the latest live checkpoint.
      const target = await live.bound(conn, projector.name)
      const caughtUp = await replay(store, (work) => conn.transaction().execute((trx) => work(trx.withSchema('pg_temp'))), projector, ctx, {
        from: shadowAt,
        skipped,
        until: target,
      })
      events += caughtUp.events
      shadowAt = caughtUp.position
      await sql.raw('BEGIN ISOLATION LEVEL REPEATABLE READ').execute(conn)
      try {
        // The first statement takes the snapshot: the live tables below are at this checkpoint.
        const position = await live.snapshot(conn, projector.name)
        const moved =
          store.comparePositions(position, shadowAt) > 0 && (await handledBetween(store, projector, skipped, shadowAt, position))
        if (moved && attempt < maxSnapshotTries) continue
        if (moved) {
          const tail = { from: shadowAt, skipped, until: position, pastRunningTransactions: true }
          events += (await replay(store, (work) => work(shadow), projector, ctx, tail)).events
        }
        const tables: TableVerification[] = []
        for (const table of projector.tables) tables.push(await compareTable(conn, table))
        return {
          projection: projector.name,
          position,
          events,
          rowsCompared: tables.reduce((n, t) => n + Math.max(t.liveRows, t.rebuiltRows), 0),
          differences: tables.reduce((n, t) => n + t.differences, 0),
          tables,
          durationMs: Date.now() - started,
        }
      } finally {
        await sql.raw('ROLLBACK').execute(conn)
      }
    }
  } finally {
    for (const table of projector.tables) await sql`DROP TABLE IF EXISTS ${sql.id('pg_temp', table)}`.execute(conn)
  }
}

/**
 * Verifies each projector in turn on a connection of its own, closed at the end so its temporary
 * tables can never shadow a live table for another user of a pool.
 */
export async function verifyProjections(
  store: EventStore,
  connectionString: string,
  projectors: readonly Projector[],
  ctx: ProjectionContext,
  options: { maxSnapshotTries?: number; mode?: ProjectionMode } = {},
): Promise<VerifyResult[]> {
  const maxSnapshotTries = options.maxSnapshotTries ?? VERIFY_LIMITS.maxSnapshotTries
  const { db } = openReadDatabase(connectionString, 1)
  const mode = options.mode ?? (await databaseProjectionMode(db))
  const lockDb = mode === 'inline' ? openReadDatabase(connectionString, 1).db : undefined
  const live = lockDb ? headPosition(lockDb) : checkpointPosition
  try {
    return await db.connection().execute(async (conn) => {
      const results: VerifyResult[] = []
      for (const projector of projectors) results.push(await verifyOne(store, conn, projector, ctx, maxSnapshotTries, live))
      return results
    })
  } finally {
    await db.destroy()
    await lockDb?.destroy()
  }
}
