// The one version of a projection's tables kept aside (projection_versions, migration 0033): the
// schema its tables sit in and the $all position they hold, written in the transaction that moves
// them aside, and moved forward with them while a rollback catches them up. Schema names per
// projection: its rebuild builds in `rebuild_<name>`, the kept version sits in `previous_<name>`.
import type { Kysely, Transaction } from 'kysely'
import type { Position } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'

export const rebuildSchemaOf = (projection: string) => `rebuild_${projection}`
export const keptSchemaOf = (projection: string) => `previous_${projection}`
/** Where the live tables wait during a swap, inside its transaction (then renamed to the kept schema). */
export const displacedSchemaOf = (projection: string) => `displaced_${projection}`

export type KeptVersion = {
  projection: string
  schema: string
  tables: string[]
  /** The last event the kept tables hold. */
  position: Position
  /** Dead letters the version had when it was moved aside (asynchronous projections only). */
  deadLetters: number
  keptAt: Date
  replacedBy: 'rebuild' | 'rollback'
}

export async function readKeptVersion(
  db: Kysely<ReadDatabase> | Transaction<ReadDatabase>,
  projection: string,
  options: { forUpdate?: boolean } = {},
): Promise<KeptVersion | undefined> {
  const query = db.selectFrom('projection_versions').selectAll().where('projection', '=', projection)
  const row = await (options.forUpdate ? query.forUpdate() : query).executeTakeFirst()
  if (!row) return undefined
  return {
    projection: row.projection,
    schema: row.kept_schema,
    tables: row.kept_tables,
    position: row.kept_position,
    deadLetters: row.kept_dead_letters,
    keptAt: row.kept_at,
    replacedBy: row.replaced_by,
  }
}

export async function recordKeptVersion(trx: Transaction<ReadDatabase>, version: Omit<KeptVersion, 'keptAt'>): Promise<void> {
  const row = {
    projection: version.projection,
    kept_schema: version.schema,
    kept_tables: version.tables,
    kept_position: version.position,
    kept_dead_letters: version.deadLetters,
    kept_at: new Date(),
    replaced_by: version.replacedBy,
  }
  await trx
    .insertInto('projection_versions')
    .values(row)
    .onConflict((oc) => oc.column('projection').doUpdateSet(row))
    .execute()
}

/** The kept tables caught up to `position` (a rollback's batches, in their transactions). */
export async function moveKeptPosition(db: Kysely<ReadDatabase>, projection: string, position: Position): Promise<void> {
  await db.updateTable('projection_versions').set({ kept_position: position }).where('projection', '=', projection).execute()
}
