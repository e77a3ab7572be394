// Rebuilds one projection from the first event into fresh tables in a side schema while the live ones
// keep serving, then switches them in and keeps the live ones as the previous version
// (switchVersion.ts: catch up, lock, tail, swap). One rebuild or rollback of a projection at a time
// (projectionLock.ts); a second is refused at once.
import { type Kysely, sql } from 'kysely'
import { loadSkippedIds } from '../../events/consumers/consumerRecords.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { keptSchemaOf, rebuildSchemaOf } from './keptVersions.js'
import { withProjectionLock } from './projectionLock.js'
import { PROJECTIONS_CONSUMER } from './projectionRunner.js'
import type { ProjectionContext, Projector } from './projector.js'
import { type SwitchProgress, switchVersion } from './switchVersion.js'

export type RebuildResult = {
  projection: string
  /** Events of $all read (handled by the projector or not). */
  events: number
  /** Where the rebuilt tables stand. */
  position: Position
  durationMs: number
  eventsPerSecond: number
  /** The tables replaced, kept for `projections rollback`, and the last event they hold. */
  previous: { schema: string; position: Position; deadLetters: number }
}

export type OperationOptions = { onProgress?: (progress: SwitchProgress) => Promise<void> | void }

export async function rebuildProjection(
  store: EventStore,
  db: Kysely<ReadDatabase>,
  projector: Projector,
  ctx: ProjectionContext,
  options: OperationOptions = {},
): Promise<RebuildResult> {
  return withProjectionLock(db, projector.name, async () => {
    const started = Date.now()
    const schema = rebuildSchemaOf(projector.name)
    // What a rebuild that died left behind goes first.
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db)
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(db)
    for (const table of projector.tables) {
      await sql`CREATE TABLE ${sql.id(schema, table)} (LIKE ${sql.id('public', table)} INCLUDING ALL)`.execute(db)
    }
    // The live runner's skips: a rebuild passes over the same events, so it succeeds where it does.
    const skipped = await loadSkippedIds(db, PROJECTIONS_CONSUMER)
    const switched = await switchVersion({
      store,
      db,
      projector,
      ctx,
      incoming: schema,
      from: START,
      skipped,
      replacedBy: 'rebuild',
      incomingIsKept: false,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    })
    const durationMs = Date.now() - started
    return {
      projection: projector.name,
      events: switched.events,
      position: switched.position,
      durationMs,
      eventsPerSecond: durationMs > 0 ? Math.round((switched.events * 1000) / durationMs) : switched.events,
      previous: { schema: keptSchemaOf(projector.name), position: switched.keptPosition, deadLetters: switched.keptDeadLetters },
    }
  })
}
