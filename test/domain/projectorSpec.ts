// Given/then for projectors: projectorSpec(db, projector).given(events).thenRows(t, { table: rows }). Reads like
// the decider spec beside it: the events a stream holds, then the rows the read model shows.
// Each `given` starts from empty tables in the file's own database. Events go through the catalog
// (parsed as the consumer runtime parses them) and are applied one at a time; when the projector
// also applies in bulk (`applyMany`), the same events applied that way must give the same rows.
import type { Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { DomainEvent } from '../../domain/decider.js'
import { parseEventData } from '../../events/catalog.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import type { Projector } from '../../projections/runtime/projector.js'
import type { ReadDatabase } from '../../projections/schema.js'
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
    data: parseEventData(e.type, e.data),
    metadata: {},
    recordedAt: new Date(),
  }))
}

// Timestamps as ISO strings, so expected rows read like the events that made them.
const plain = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]))

async function snapshot(db: Kysely<ReadDatabase>, projector: Projector): Promise<Tables> {
  const tables: Tables = new Map()
  for (const table of projector.tables) {
    const { rows } = await sql<Row>`SELECT * FROM ${sql.table(table)} ORDER BY 1`.execute(db)
    tables.set(table, rows.map(plain))
  }
  return tables
}

async function project(db: Kysely<ReadDatabase>, projector: Projector, events: RecordedEvent[], bulk: boolean): Promise<Tables> {
  await sql`TRUNCATE ${sql.join(projector.tables.map((table) => sql.table(table)))}`.execute(db)
  await db.transaction().execute(async (trx) => {
    if (bulk && projector.applyMany) await projector.applyMany(trx, events)
    else for (const event of events) await projector.apply(trx, event)
  })
  return snapshot(db, projector)
}

/** One migrated read-model database for the test file, closed and dropped when it ends. */
export async function projectionDatabase(t: Test): Promise<Kysely<ReadDatabase>> {
  const { db } = openReadDatabase(await createTestDatabase(t), 2)
  t.teardown(() => db.destroy())
  await migrateToLatest(db)
  return db
}

export function projectorSpec(db: Kysely<ReadDatabase>, projector: Projector) {
  return {
    given(events: DomainEvent[]) {
      const rows = async (t: Test) => {
        const stored = recorded(events)
        const oneByOne = await project(db, projector, stored, false)
        if (projector.applyMany) t.same(await project(db, projector, stored, true), oneByOne, 'applyMany gives the rows apply gives')
        return oneByOne
      }
      return {
        /** Each named table holds exactly these rows (in its first column's order), each matching its pattern. */
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
