// A snapshot of the read models at a known $all position, for what compares them with the events
// (projections verify, ledger verify) or swaps them (a rebuild):
// - async: the projector's checkpoint, read in the snapshot (rows and checkpoint commit together);
// - inline: the head of the events in the snapshot. Rows commit with their events, but an inline
//   append still in flight when the snapshot is taken could hold events below that head which
//   commit later; so the snapshot is taken while the append lock is held alone (appends wait for a
//   moment, none is in flight), and the head then names exactly what the snapshot holds.
import { type Kysely, type Transaction, sql } from 'kysely'
import { readCheckpoint } from '../../events/consumers/checkpoints.js'
import type { Position } from '../../events/store/port.js'
import { IN_TRANSACTION_APPEND_LOCK } from '../../events/store/postgres/appendBatch.js'
import type { ReadDatabase } from '../schema.js'
import type { ProjectionMode } from './projectionMode.js'
import { eventsHead } from './eventsHead.js'

/** Where the projector's rows are, read without a snapshot of their own (a bound to fold up to before one). */
export function readModelPosition(db: Kysely<ReadDatabase>, mode: ProjectionMode, projectorName: string): Promise<Position> {
  return mode === 'inline' ? eventsHead(db) : readCheckpoint(db, projectorName)
}

/**
 * Runs `work` in a repeatable-read transaction with the position its snapshot shows the
 * projector's rows at. Inline, the append lock is held alone only until the snapshot is taken.
 */
export async function inReadModelSnapshot<T>(
  db: Kysely<ReadDatabase>,
  mode: ProjectionMode,
  projectorName: string,
  work: (trx: Transaction<ReadDatabase>, position: Position) => Promise<T>,
): Promise<T> {
  if (mode === 'async')
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => work(trx, await readCheckpoint(trx, projectorName)))
  return db.connection().execute(async (lockConnection) => {
    let locked = false
    const unlock = async () => {
      if (!locked) return
      locked = false
      await sql`SELECT pg_advisory_unlock(${IN_TRANSACTION_APPEND_LOCK})`.execute(lockConnection)
    }
    try {
      await sql`SELECT pg_advisory_lock(${IN_TRANSACTION_APPEND_LOCK})`.execute(lockConnection)
      locked = true
      return await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          // The first statement takes the snapshot: nothing in flight now, so the head names all of it.
          const head = await eventsHead(trx)
          await unlock()
          return work(trx, head)
        })
    } finally {
      await unlock()
    }
  })
}
