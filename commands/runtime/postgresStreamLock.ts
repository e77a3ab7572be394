// The stream lock on PostgreSQL: a session advisory lock per stream, on a small pool of its own so
// a waiting command never holds a connection the reads or the projectors need. The lock lives in
// the read database, so it serves the EventStoreDB store too. Destroying a connection frees its
// locks, which is what happens when an unlock fails or the process dies.
import pg from 'pg'
import { type StreamLock, StreamLockTimeoutError } from './streamLock.js'

export const STREAM_LOCK_LIMITS = {
  /** Streams locked at once by this process (each holds one connection while it decides). */
  maxConnections: 10,
  /** Longest wait for another process to release a stream (PostgreSQL lock_timeout). */
  lockWaitMs: 5_000,
  /** Longest wait for a free connection of this pool. */
  connectTimeoutMs: 5_000,
} as const

/** First key of the two-key advisory lock form: stream locks never meet the single-key locks used elsewhere. */
const STREAM_LOCK_SPACE = 7171010
const LOCK_NOT_AVAILABLE = '55P03'

export function createPostgresStreamLock(options: { connectionString: string; onError: (error: unknown) => void }): StreamLock {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: STREAM_LOCK_LIMITS.maxConnections,
    lock_timeout: STREAM_LOCK_LIMITS.lockWaitMs,
    connectionTimeoutMillis: STREAM_LOCK_LIMITS.connectTimeoutMs,
    application_name: 'stream-lock',
  })
  pool.on('error', options.onError)
  return {
    async acquire(stream) {
      const client = await pool.connect()
      try {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [STREAM_LOCK_SPACE, stream])
      } catch (error) {
        client.release()
        if (error instanceof Error && 'code' in error && error.code === LOCK_NOT_AVAILABLE) throw new StreamLockTimeoutError(stream)
        throw error
      }
      return {
        release: () =>
          client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [STREAM_LOCK_SPACE, stream]).then(
            () => client.release(),
            (error: unknown) => client.release(error instanceof Error ? error : new Error(String(error))),
          ),
      }
    },
    close: () => pool.end(),
  }
}
