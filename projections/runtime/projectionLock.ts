// One operation at a time on a projection's tables (a rebuild or a rollback), across processes: a
// second would drop or move the first's tables. A session advisory lock on a connection held for the
// whole operation: a process that dies (kill -9, a lost connection) frees it with its session, so no
// stale row ever blocks the next operator.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../schema.js'

/** First key of the two-key advisory lock form: these never meet the single-key locks or the stream locks (7171010). */
const PROJECTION_LOCK_SPACE = 7_171_030

/** Another rebuild or rollback of the projection holds its lock; nothing was changed. */
export class ProjectionBusyError extends Error {
  override readonly name = 'ProjectionBusyError'
  constructor(readonly projection: string) {
    super(`A rebuild or rollback of ${projection} is already running; try again when it has finished`)
  }
}

/** Runs `work` holding the projection's lock, or throws ProjectionBusyError at once when another process holds it. */
export async function withProjectionLock<T>(db: Kysely<ReadDatabase>, projection: string, work: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_lock(${PROJECTION_LOCK_SPACE}, hashtext(${projection})) AS locked`.execute(conn)
    if (!rows[0]?.locked) throw new ProjectionBusyError(projection)
    try {
      return await work()
    } finally {
      await sql`SELECT pg_advisory_unlock(${PROJECTION_LOCK_SPACE}, hashtext(${projection}))`.execute(conn)
    }
  })
}
