// The head of the Postgres store's $all as one database connection sees it: what an inline read
// model holds once no append is in flight (readModelSnapshot.ts, projectionMode.ts).
import { type Kysely, sql } from 'kysely'
import type { Position } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'
import type { ReadDatabase } from '../schema.js'

/** The last event visible to `db` (its snapshot, inside a transaction); the Postgres store only. */
export async function eventsHead(db: Kysely<ReadDatabase>): Promise<Position> {
  const { rows } = await sql<{ tx: string; gp: string }>`
    SELECT transaction_id::text AS tx, global_position::text AS gp FROM es_events
    ORDER BY transaction_id DESC, global_position DESC LIMIT 1`.execute(db)
  const head = rows[0]
  return head ? encodePosition(head.tx, head.gp) : START
}
