// Given/then for projectors: projectorSpec(db, projector).given(events).thenRows(t, { table: rows }). Reads like
// the decider spec beside it: the events a stream holds, then the rows the read model shows.
// Each `given` starts from empty tables in the file's own database. Events go through the catalog
// (parsed as the consumer runtime parses them) and are applied one at a time; when the projector
// also applies in bulk (`applyMany`), the same events applied that way must give the same rows.
// Projectors seal what is sensitive (projections/sealedColumns.ts): the spec checks that no such
// leaf is stored in clear, then shows the rows opened, so expected rows read in clear.
import type { Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { DomainEvent } from '../../domain/decider.js'
import { parseCurrentEventData } from '../../events/catalog.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import type { ProjectionContext, Projector } from '../../projections/runtime/projector.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { SEALED_JSON_COLUMNS } from '../../projections/sealedColumns.js'
import { type DataProtection, dataProtection } from '../../events/protection/dataProtection.js'
import { postgresDataKeyStore } from '../../events/protection/dataKeys.js'
import { localKeyManagement } from '../../events/protection/localKeyManagement.js'
import { openDataKeyDatabase } from '../../events/protection/tables.js'
import type pg from 'pg'
import { createTestDatabase } from '../harness/testDatabase.js'

type Row = Record<string, unknown>
type Tables = Map<string, Row[]>

let commit = 0n
function recorded(events: DomainEvent[]): RecordedEvent[] {
  commit += 1n
  return events.map((e, i) => ({
    id: randomUUID(),
    stream: 'spec',
    revision: BigInt(i),
    position: encodePosition(commit, BigInt(i)),
    type: e.type,
    data: parseCurrentEventData(e),
    metadata: {},
    recordedAt: new Date(),
  }))
}

// Timestamps as ISO strings, so expected rows read like the events that made them.
const plain = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]))

/** A fixed key-encryption key for the spec's data keys. */
const TEST_KEK = Buffer.alloc(32, 11)

/** Data protection on the test database's data_keys table (through its pool), with a fixed KEK. */
export function testProtection(pool: pg.Pool): DataProtection {
  const kms = localKeyManagement({ keks: new Map([['kek_test', TEST_KEK]]), currentKekId: 'kek_test' })
  return dataProtection(postgresDataKeyStore(openDataKeyDatabase(pool), kms))
}

/** The pool of each database projectionDatabase opened, for the spec's protection. */
const pools = new WeakMap<Kysely<ReadDatabase>, pg.Pool>()

/** The rows with their sealed columns opened; fails the test when a sensitive leaf is stored in clear. */
async function opened(t: Test, ctx: ProjectionContext, table: string, rows: Row[]): Promise<Row[]> {
  let result = rows
  for (const { column, sealed } of SEALED_JSON_COLUMNS.filter((c) => c.table === table)) {
    for (const row of result) t.ok(sealed.isSealed(row[column]), `${table}.${column} of ${String(row.id)}: nothing sensitive in clear`)
    const values = await sealed.openMany(
      ctx.protection,
      result.map((row) => ({ id: String(row.id), value: row[column], subject: String(row[sealed.subjectColumn]) })),
    )
    result = result.map((row, i) => ({ ...row, [column]: values[i] }))
  }
  return result
}

async function snapshot(t: Test, db: Kysely<ReadDatabase>, projector: Projector, ctx: ProjectionContext): Promise<Tables> {
  const tables: Tables = new Map()
  for (const table of projector.tables) {
    // By the first two columns: a table keyed by (account, sequence) lists each account's rows in order.
    const { rows } = await sql<Row>`SELECT * FROM ${sql.table(table)} ORDER BY 1, 2`.execute(db)
    tables.set(table, await opened(t, ctx, table, rows.map(plain)))
  }
  return tables
}

async function project(
  t: Test,
  db: Kysely<ReadDatabase>,
  projector: Projector,
  ctx: ProjectionContext,
  events: RecordedEvent[],
  bulk: boolean,
): Promise<Tables> {
  await sql`TRUNCATE ${sql.join(projector.tables.map((table) => sql.table(table)))}`.execute(db)
  await db.transaction().execute(async (trx) => {
    if (bulk && projector.applyMany) await projector.applyMany(trx, events, ctx)
    else for (const event of events) await projector.apply(trx, event, ctx)
  })
  return snapshot(t, db, projector, ctx)
}

/** One migrated read-model database for the test file, closed and dropped when it ends. */
export async function projectionDatabase(t: Test): Promise<Kysely<ReadDatabase>> {
  const { db, pool } = openReadDatabase(await createTestDatabase(t), 2)
  pools.set(db, pool)
  t.teardown(() => db.destroy())
  await migrateToLatest(db)
  return db
}

export function projectorSpec(db: Kysely<ReadDatabase>, projector: Projector) {
  const pool = pools.get(db)
  if (!pool) throw new Error('projectorSpec runs on a database from projectionDatabase(t)')
  const ctx: ProjectionContext = { protection: testProtection(pool) }
  return {
    /** The protection the spec's projector seals with (to shred a subject, or open a value). */
    protection: ctx.protection,
    given(events: DomainEvent[]) {
      const rows = async (t: Test) => {
        const stored = recorded(events)
        const oneByOne = await project(t, db, projector, ctx, stored, false)
        if (projector.applyMany)
          t.same(await project(t, db, projector, ctx, stored, true), oneByOne, 'applyMany gives the rows apply gives')
        return oneByOne
      }
      return {
        /** Each named table holds exactly these rows (in its first two columns' order), each matching its pattern. */
        async thenRows(t: Test, expected: Partial<Record<keyof ReadDatabase, Row[]>>) {
          const tables = await rows(t)
          for (const [table, patterns = []] of Object.entries(expected)) {
            const actual = tables.get(table)
            if (!actual) throw new Error(`${projector.name} does not own ${table}`)
            t.equal(actual.length, patterns.length, `${table}: ${patterns.length} row(s)`)
            patterns.forEach((pattern, i) => t.match(actual[i], pattern, `${table}: row ${i + 1}`))
          }
        },
        /** The projector fails on these events (its batch would roll back). */
        async thenThrows(t: Test, pattern: RegExp) {
          await t.rejects(rows(t), pattern)
        },
      }
    },
  }
}
