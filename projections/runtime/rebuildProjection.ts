// Rebuilds one projection from position 0 into fresh tables in a side schema while the live ones
// keep serving, then swaps them in within one transaction that holds the checkpoint row, so the
// live projector resumes exactly where the rebuild stopped.
import { type Kysely, sql } from 'kysely'
import type { EventStore, Position } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { lockCheckpoint } from './applyBatch.js'
import type { Projector } from './projector.js'
import { parseEventData } from '../../events/catalog.js'

export const REBUILD_LIMITS = { batchSize: 1_000, maxBatches: 10_000_000 } as const

export type RebuildResult = { projection: string; events: number; position: Position; durationMs: number }

type Apply = (work: (db: Kysely<ReadDatabase>) => Promise<void>) => Promise<void>

async function replay(store: EventStore, apply: Apply, projector: Projector, from: Position): Promise<{ position: Position; count: number }> {
  let position = from
  let count = 0
  for (let i = 0; i < REBUILD_LIMITS.maxBatches; i++) {
    const events = await store.readAll({ from: position || undefined, maxCount: REBUILD_LIMITS.batchSize })
    if (events.length === 0) break
    await apply(async (db) => {
      for (const event of events) {
        if (projector.handles.has(event.type)) await projector.apply(db, { ...event, data: parseEventData(event.type, event.data) })
      }
    })
    count += events.length
    position = events[events.length - 1]!.position
  }
  return { position, count }
}

export async function rebuildProjection(store: EventStore, db: Kysely<ReadDatabase>, projector: Projector): Promise<RebuildResult> {
  const started = Date.now()
  const schema = `rebuild_${projector.name}`
  await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db)
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(db)
  for (const table of projector.tables) {
    await sql`CREATE TABLE ${sql.id(schema, table)} (LIKE ${sql.id('public', table)} INCLUDING ALL)`.execute(db)
  }
  const scoped = db.withSchema(schema)
  // One transaction per batch while the live tables serve; the tail runs inside the swap's.
  const first = await replay(store, (work) => scoped.transaction().execute(work), projector, START)

  return db.transaction().execute(async (trx) => {
    // Holding the checkpoint row pauses the live projector; finish the tail, then swap.
    await lockCheckpoint(trx, projector.name)
    const scopedTrx = trx.withSchema(schema)
    const tail = await replay(store, (work) => work(scopedTrx), projector, first.position)
    for (const table of projector.tables) {
      await sql`DROP TABLE ${sql.id('public', table)}`.execute(trx)
      await sql`ALTER TABLE ${sql.id(schema, table)} SET SCHEMA public`.execute(trx)
    }
    await sql`DROP SCHEMA ${sql.id(schema)}`.execute(trx)
    await trx.updateTable('projection_checkpoints').set({ position: tail.position, updated_at: new Date() }).where('name', '=', projector.name).execute()
    return { projection: projector.name, events: first.count + tail.count, position: tail.position, durationMs: Date.now() - started }
  })
}
