// The Postgres event store: the embedded default's and an operator's Postgres alike.
import pg from 'pg'
import type { AppendResult, EventStore, NewEvent, Position } from '../port.js'
import { STORE_LIMITS } from '../port.js'
import { comparePositions } from '../positions.js'
import { createCommitSignal } from './commitSignal.js'
import { createGroupCommitter } from './groupCommit.js'
import { createGroupReader } from './groupRead.js'
import { readAllMarks, readHead } from './marks.js'
import { boundedCount, readAll } from './reads.js'
import { ensureEventStoreSchema } from './schema.js'
import { subscribeWithPolling } from './subscribeToAll.js'
import { assertStorableAppend } from '../storableData.js'

export type PostgresEventStoreOptions = {
  connectionString: string
  /** Connections for appends and reads; the LISTEN connection comes on top. */
  poolSize?: number
  onError?: (error: unknown) => void
  /**
   * False writes events without their hash chain (no content hash, so neither the statement nor the trigger
   * links them): only the bench's baseline for the chain's cost. A deployment always chains.
   */
  hashChain?: boolean
}

export const POSTGRES_STORE_LIMITS = {
  // A writer stuck inside a transaction holds back every $all reader; end it rather than stall.
  idleInTransactionTimeoutMs: 10_000,
  statementTimeoutMs: 30_000,
  defaultPoolSize: 10,
} as const

function assertAppendable(stream: string, events: NewEvent[]): void {
  if (events.length === 0) throw new RangeError('An append needs at least one event')
  if (events.length > STORE_LIMITS.maxEventsPerAppend) throw new RangeError(`At most ${STORE_LIMITS.maxEventsPerAppend} events per append`)
  assertStorableAppend(stream, events)
}

export async function getPostgresEventStore(options: PostgresEventStoreOptions): Promise<EventStore> {
  let closing = false
  // Once closing, connections ending (57P01 when an embedded cluster stops) are expected, not errors.
  const onError = (error: unknown) => {
    if (!closing) options.onError?.(error)
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? POSTGRES_STORE_LIMITS.defaultPoolSize,
    idle_in_transaction_session_timeout: POSTGRES_STORE_LIMITS.idleInTransactionTimeoutMs,
    statement_timeout: POSTGRES_STORE_LIMITS.statementTimeoutMs,
  })
  pool.on('error', onError)
  // A client checked out of the pool has no 'error' listener of the pool's: a FATAL arriving between
  // its queries (the server restarting, 57P01) would be an unhandled 'error' and end the process.
  // It fails its next query instead, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined))
  await ensureEventStoreSchema(pool)
  const signal = createCommitSignal(pool, onError)
  const committer = createGroupCommitter(pool, (position) => signal.committed(position))
  const reader = createGroupReader(pool)
  const subscriptions = new Set<{ stop: () => Promise<void> }>()

  return {
    kind: 'postgres',
    supportsInTransaction: true,
    appendToStream(stream, events, appendOptions): Promise<AppendResult> {
      // A refusal as a rejected promise, like every other append failure.
      try {
        assertAppendable(stream, events)
      } catch (error) {
        return Promise.reject(error)
      }
      return committer.append({
        stream,
        events,
        expectedRevision: appendOptions?.expectedRevision ?? 'any',
        inTransaction: appendOptions?.inTransaction,
        stepView: appendOptions?.stepView,
        ...(options.hashChain === false ? { contentHashes: events.map(() => null) } : {}),
      })
    },
    readStream(stream, readOptions) {
      try {
        return reader.read(stream, readOptions?.fromRevision ?? 0n, boundedCount(readOptions?.maxCount))
      } catch (error) {
        return Promise.reject(error)
      }
    },
    readAll: (readOptions) =>
      readAll(pool, readOptions?.from || undefined, readOptions?.maxCount, readOptions?.pastRunningTransactions ?? false),
    readAllMarks: async (readOptions) => readAllMarks(pool, readOptions?.from || undefined, readOptions?.maxCount),
    readHead: () => readHead(pool),
    subscribeToAll(subscribeOptions, handler) {
      const sub = subscribeWithPolling(
        (from: Position, maxCount: number) => readAll(pool, from || undefined, maxCount),
        signal,
        { ...subscribeOptions, onError },
        handler,
      )
      subscriptions.add(sub)
      void sub.done.finally(() => subscriptions.delete(sub))
      return sub
    },
    comparePositions,
    async close() {
      closing = true
      await Promise.all([...subscriptions].map((s) => s.stop()))
      await signal.close()
      await pool.end()
    },
  }
}
