// Swaps a projection's tables inside the caller's transaction: the live ones move aside into the kept
// schema (replacing the version kept there before), the incoming ones (a rebuild's, or the kept version
// on a rollback) move into public under the live tables' index names. Readers see the old tables or
// the new ones, never neither: moving a table to another schema is a catalog change that commits with
// the rest. The live tables are locked first, all at once and with a bounded wait, so a long reader
// makes the swap give up and try again rather than queue every other reader behind it.
import { type Transaction, sql } from 'kysely'
import type { ReadDatabase } from '../schema.js'
import { displacedSchemaOf, keptSchemaOf } from './keptVersions.js'

export const SWAP_LIMITS = {
  /** The longest the swap waits for readers to let go of the live tables before it gives up (and is tried again). */
  lockTimeoutMs: 2_000,
} as const

type IndexRow = { indexname: string; indexdef: string }

async function indexesOf(trx: Transaction<ReadDatabase>, schema: string, table: string): Promise<IndexRow[]> {
  const result = await sql<IndexRow>`
    SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = ${schema} AND tablename = ${table}`.execute(trx)
  return result.rows
}

/** An index definition without its own name and schema, to pair a rebuilt index with the live one. */
export const indexShapeOf = (def: string) => def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+/, 'CREATE $1INDEX ON')

/** Whether `error` is Postgres giving up on a lock (lock_timeout): the swap can be tried again. */
export function isLockTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '55P03'
}

/**
 * Moves the live `tables` of `projection` to its kept schema and those of `incoming` into public; drops
 * the emptied `incoming` schema and whatever version was kept before.
 */
export async function swapTables(
  trx: Transaction<ReadDatabase>,
  projection: string,
  tables: readonly string[],
  incoming: string,
): Promise<void> {
  const displaced = displacedSchemaOf(projection)
  const kept = keptSchemaOf(projection)
  await sql`SET LOCAL lock_timeout = ${sql.lit(`${SWAP_LIMITS.lockTimeoutMs}ms`)}`.execute(trx)
  await sql`LOCK TABLE ${sql.join(tables.map((t) => sql.id('public', t)))} IN ACCESS EXCLUSIVE MODE`.execute(trx)
  await sql`CREATE SCHEMA ${sql.id(displaced)}`.execute(trx)
  for (const table of tables) {
    const liveIndexes = await indexesOf(trx, 'public', table)
    await sql`ALTER TABLE ${sql.id('public', table)} SET SCHEMA ${sql.id(displaced)}`.execute(trx)
    await sql`ALTER TABLE ${sql.id(incoming, table)} SET SCHEMA public`.execute(trx)
    // LIKE ... INCLUDING ALL names indexes its own way; give them back the names migrations used.
    for (const index of await indexesOf(trx, 'public', table)) {
      const original = liveIndexes.find((live) => indexShapeOf(live.indexdef) === indexShapeOf(index.indexdef))
      if (original && original.indexname !== index.indexname) {
        await sql`ALTER INDEX ${sql.id('public', index.indexname)} RENAME TO ${sql.id(original.indexname)}`.execute(trx)
      }
    }
  }
  // Emptied now; a plain DROP fails loudly should anything else have been put there.
  await sql`DROP SCHEMA ${sql.id(incoming)}`.execute(trx)
  await sql`DROP SCHEMA IF EXISTS ${sql.id(kept)} CASCADE`.execute(trx)
  await sql`ALTER SCHEMA ${sql.id(displaced)} RENAME TO ${sql.id(kept)}`.execute(trx)
}
