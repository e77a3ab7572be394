// Applies a batch of events to one projector's tables and advances its checkpoint in the same
// transaction. The checkpoint row is locked first: if another process (the CLI beside the server)
// got there before, only the events past its checkpoint are applied. Exactly once, either way.
import type { Kysely } from 'kysely'
import { parseEventData } from '../../events/catalog.js'
import type { Position, RecordedEvent } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import type { Projector } from './projector.js'

export async function lockCheckpoint(trx: Kysely<ReadDatabase>, name: string): Promise<Position> {
  await trx.insertInto('projection_checkpoints').values({ name, position: '', updated_at: new Date() }).onConflict((oc) => oc.column('name').doNothing()).execute()
  const row = await trx.selectFrom('projection_checkpoints').select('position').where('name', '=', name).forUpdate().executeTakeFirstOrThrow()
  return row.position as Position
}

/** Returns the checkpoint after the batch. */
export async function applyBatch(db: Kysely<ReadDatabase>, projector: Projector, events: RecordedEvent[]): Promise<Position> {
  return db.transaction().execute(async (trx) => {
    const stored = await lockCheckpoint(trx, projector.name)
    const fresh = events.filter((e) => e.position > stored)
    if (fresh.length === 0) return stored
    for (const event of fresh) {
      if (!projector.handles.has(event.type)) continue
      await projector.apply(trx, { ...event, data: parseEventData(event.type, event.data) })
    }
    const last = fresh[fresh.length - 1]!.position
    await trx.updateTable('projection_checkpoints').set({ position: last, updated_at: new Date() }).where('name', '=', projector.name).execute()
    return last
  })
}
