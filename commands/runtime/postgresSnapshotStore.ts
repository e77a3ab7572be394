// The snapshot store on PostgreSQL: table aggregate_snapshots (migration 0014) in the read
// database, on its pool (the runtime keeps at most SNAPSHOT_LIMITS.maxSavesInFlight saves going).
// The state is JSON as text: written and read back as is, never queried inside, so it costs no
// jsonb conversion either way. Also the operator's reads and deletes (`snapshots status|rebuild`).
import { type ColumnType, Kysely, PostgresDialect, sql } from 'kysely'
import type pg from 'pg'
import type { NewSnapshot, SnapshotStore, StoredSnapshot } from './snapshotStore.js'

export interface AggregateSnapshotsTable {
  stream: string
  /** int8 comes back as a string (the read database keeps pg's default). */
  revision: ColumnType<string, string, string>
  version: number
  state: string
  taken_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export type SnapshotDatabase = { aggregate_snapshots: AggregateSnapshotsTable }

/** A Kysely over the read database's pool (closing the read database closes the pool). */
export function openSnapshotDatabase(pool: pg.Pool): Kysely<SnapshotDatabase> {
  return new Kysely<SnapshotDatabase>({ dialect: new PostgresDialect({ pool }) })
}

export const POSTGRES_SNAPSHOT_LIMITS = {
  /** Largest state kept (JSON characters): a larger one is refused (the runtime logs it), not stored. */
  maxStateChars: 8_000_000,
} as const

function toRow(s: NewSnapshot) {
  const state = JSON.stringify(s.state)
  if (state.length > POSTGRES_SNAPSHOT_LIMITS.maxStateChars)
    throw new RangeError(`snapshot of ${s.stream} is ${state.length} characters, over ${POSTGRES_SNAPSHOT_LIMITS.maxStateChars}`)
  return { stream: s.stream, revision: s.revision.toString(), version: s.version, state }
}

export function createPostgresSnapshotStore(db: Kysely<SnapshotDatabase>): SnapshotStore {
  return {
    async read(stream) {
      const row = await db.selectFrom('aggregate_snapshots').selectAll().where('stream', '=', stream).executeTakeFirst()
      if (!row) return undefined
      const snapshot: StoredSnapshot = {
        stream: row.stream,
        revision: BigInt(row.revision),
        version: row.version,
        state: JSON.parse(row.state) as unknown,
        takenAt: row.taken_at,
      }
      return snapshot
    },
    async save(snapshot) {
      await db
        .insertInto('aggregate_snapshots')
        .values(toRow(snapshot))
        .onConflict((c) =>
          c
            .column('stream')
            .doUpdateSet((eb) => ({
              revision: eb.ref('excluded.revision'),
              version: eb.ref('excluded.version'),
              state: eb.ref('excluded.state'),
              taken_at: sql<Date>`now()`,
            }))
            // Two processes (or a late save) racing: the newer state stays.
            .where('aggregate_snapshots.revision', '<', (eb) => eb.ref('excluded.revision')),
        )
        .execute()
    },
    async replace(snapshot) {
      await db
        .insertInto('aggregate_snapshots')
        .values(toRow(snapshot))
        .onConflict((c) =>
          c.column('stream').doUpdateSet((eb) => ({
            revision: eb.ref('excluded.revision'),
            version: eb.ref('excluded.version'),
            state: eb.ref('excluded.state'),
            taken_at: sql<Date>`now()`,
          })),
        )
        .execute()
    },
  }
}

/**
 * A page of the streams that have a snapshot, of one category (`<category>-<id>`) or all, in stream
 * order after `after`.
 */
export async function snapshotStreams(
  db: Kysely<SnapshotDatabase>,
  page: { category?: string; after?: string; limit: number },
): Promise<string[]> {
  let query = db.selectFrom('aggregate_snapshots').select('stream').orderBy('stream').limit(page.limit)
  // starts_with: a category's name is taken literally (LIKE would read _ and % in it as patterns).
  if (page.category !== undefined) query = query.where(sql<boolean>`starts_with(stream, ${`${page.category}-`})`)
  if (page.after !== undefined) query = query.where('stream', '>', page.after)
  return (await query.execute()).map((r) => r.stream)
}

export async function deleteSnapshot(db: Kysely<SnapshotDatabase>, stream: string): Promise<boolean> {
  const result = await db.deleteFrom('aggregate_snapshots').where('stream', '=', stream).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export type SnapshotCategoryStatus = {
  category: string
  snapshots: number
  oldestVersion: number
  newestVersion: number
  oldestTakenAt: Date
}

/** Per stream category: how many snapshots, their oldest and newest codec versions, the oldest taken. */
export async function snapshotStatus(db: Kysely<SnapshotDatabase>): Promise<SnapshotCategoryStatus[]> {
  const category = sql<string>`split_part(stream, '-', 1)`
  const rows = await db
    .selectFrom('aggregate_snapshots')
    .select((eb) => [
      category.as('category'),
      eb.fn.countAll<string>().as('snapshots'),
      eb.fn.min('version').as('oldest_version'),
      eb.fn.max('version').as('newest_version'),
      eb.fn.min('taken_at').as('oldest_taken_at'),
    ])
    .groupBy(category)
    .orderBy(category)
    .execute()
  return rows.map((r) => ({
    category: r.category,
    snapshots: Number(r.snapshots),
    oldestVersion: r.oldest_version,
    newestVersion: r.newest_version,
    oldestTakenAt: r.oldest_taken_at,
  }))
}
