// Rolls a projection back to the version its last rebuild (or rollback) kept aside: the kept tables are
// caught up from the position recorded with them to the head (their recorded position moving with each
// batch, so a rollback that dies resumes exactly), then switched in as a rebuild's are (switchVersion.ts),
// and the tables they replace are kept in turn: a second rollback undoes the first. The projector's
// checkpoint comes back with the tables: it is set to where they stand after the tail.
import type { Kysely } from 'kysely'
import { loadSkippedIds } from '../../events/consumers/consumerRecords.js'
import type { EventStore, Position } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { keptSchemaOf, readKeptVersion } from './keptVersions.js'
import { withProjectionLock } from './projectionLock.js'
import { PROJECTIONS_CONSUMER } from './projectionRunner.js'
import type { ProjectionContext, Projector } from './projector.js'
import type { OperationOptions } from './rebuildProjection.js'
import { switchVersion } from './switchVersion.js'
import { differentTables } from './tableShapes.js'

/** Nothing was changed: there is no version to roll back to, or the one kept cannot be brought back exactly. */
export class RollbackRefusedError extends Error {
  override readonly name = 'RollbackRefusedError'
  constructor(
    readonly projection: string,
    readonly reason: 'no_previous_version' | 'previous_version_unusable',
    message: string,
  ) {
    super(message)
  }
}

export type RollbackResult = {
  projection: string
  /** The version brought back: when it was kept, and where it stood then. */
  restored: { keptAt: string; keptPosition: Position }
  /** Events of $all it was caught up over. */
  events: number
  /** Where the restored tables stand now (and the projector's checkpoint). */
  position: Position
  durationMs: number
  /** The tables replaced, kept in turn (a second rollback brings them back). */
  previous: { schema: string; position: Position; deadLetters: number }
}

export async function rollbackProjection(
  store: EventStore,
  db: Kysely<ReadDatabase>,
  projector: Projector,
  ctx: ProjectionContext,
  options: OperationOptions = {},
): Promise<RollbackResult> {
  const name = projector.name
  return withProjectionLock(db, name, async () => {
    const started = Date.now()
    const kept = await readKeptVersion(db, name)
    if (!kept) throw new RollbackRefusedError(name, 'no_previous_version', `${name} has no previous version: nothing to roll back to`)
    if (kept.deadLetters > 0)
      throw new RollbackRefusedError(
        name,
        'previous_version_unusable',
        `the previous version of ${name} had ${kept.deadLetters} dead letters when it was replaced; their events are not in it, and ` +
          'were cleared with it: rebuild instead',
      )
    const changed = await differentTables(db, projector.tables, 'public', kept.schema)
    if (changed.length > 0 || kept.tables.join() !== projector.tables.join())
      throw new RollbackRefusedError(
        name,
        'previous_version_unusable',
        `the previous version of ${name} no longer has the live tables' shape (${changed.join(', ') || 'its tables'}: ` +
          'a migration or a new version changed them since): rebuild instead',
      )
    const skipped = await loadSkippedIds(db, PROJECTIONS_CONSUMER)
    const switched = await switchVersion({
      store,
      db,
      projector,
      ctx,
      incoming: kept.schema,
      from: kept.position,
      skipped,
      replacedBy: 'rollback',
      incomingIsKept: true,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    })
    return {
      projection: name,
      restored: { keptAt: kept.keptAt.toISOString(), keptPosition: kept.position },
      events: switched.events,
      position: switched.position,
      durationMs: Date.now() - started,
      previous: { schema: keptSchemaOf(name), position: switched.keptPosition, deadLetters: switched.keptDeadLetters },
    }
  })
}
