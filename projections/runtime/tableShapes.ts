// The shape of a projection's tables in one schema (columns with their types, nullability and defaults;
// index definitions without their names): a kept version is rolled back only onto tables of the same
// shape, since a migration run after it was kept changed only the live ones.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../schema.js'
import { indexShapeOf } from './tableSwap.js'

export type TableShape = { table: string; columns: string[]; indexes: string[] }

async function shapeOf(db: Kysely<ReadDatabase>, schema: string, table: string): Promise<TableShape | undefined> {
  const { rows: columns } = await sql<{ column: string }>`
    SELECT a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
      || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') AS column
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = ${schema} AND c.relname = ${table} AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attnum`.execute(db)
  if (columns.length === 0) return undefined
  const { rows: indexes } = await sql<{ indexdef: string }>`
    SELECT indexdef FROM pg_indexes WHERE schemaname = ${schema} AND tablename = ${table}`.execute(db)
  return { table, columns: columns.map((c) => c.column), indexes: indexes.map((i) => indexShapeOf(i.indexdef)).sort() }
}

/** The tables of `tables` whose shape differs between the two schemas (or that one of them lacks). */
export async function differentTables(db: Kysely<ReadDatabase>, tables: readonly string[], a: string, b: string): Promise<string[]> {
  const different: string[] = []
  for (const table of tables) {
    const [left, right] = [await shapeOf(db, a, table), await shapeOf(db, b, table)]
    if (!left || !right || JSON.stringify(left) !== JSON.stringify(right)) different.push(table)
  }
  return different
}
