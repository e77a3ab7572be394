// Writes a batch of appends (group commit) with one statement: each append's events go in after
// its stream's last revision when its expectation holds, and subscribers are notified. A rejected
// append does not affect the others. Without in-transaction steps the statement autocommits; with
// them (inline projections), one transaction holds the statement and every append's step, so the
// events commit with what the steps wrote, or nothing does. Once the batch has committed, nothing
// here throws for it: an error after it is reported per append, so the committer never writes an
// append twice by retrying it.
import type pg from 'pg'
import {
  type AppendResult,
  type ExpectedRevision,
  type InTransactionStep,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedVersionError,
} from '../port.js'
import { contentHashOf } from '../../integrity/eventHash.js'
import { encodePosition } from '../positions.js'
import { APPEND_STATEMENT, APPEND_STATEMENT_NAME, CURRENT_REVISIONS_STATEMENT, STREAM_REVISION_CONSTRAINT } from './appendStatement.js'

export type PendingAppend = {
  stream: string
  events: NewEvent[]
  expectedRevision: ExpectedRevision
  /** Run inside the batch's transaction with this append's events as recorded (once for the appends sharing it). */
  inTransaction?: InTransactionStep | undefined
  /** The events as the step sees them. */
  stepView?: ((recorded: RecordedEvent[]) => RecordedEvent[]) | undefined
  /** Given: used as is, null for no chain (the bench's baseline, `hashChain: false`); absent: computed here. */
  contentHashes?: readonly (string | null)[] | undefined
}
export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: Error }

/** Channel used to wake subscribers in other processes; the payload is the last position written. */
export const APPENDED_CHANNEL = 'es_appended'

export const APPEND_BATCH_LIMITS = {
  // Decisions per append: another process writing the same stream at that moment makes the first
  // one stale, and each attempt after it reads fresh revisions.
  maxAttempts: 5,
} as const

type WrittenRow = {
  stream_name: string
  stream_revision: string
  transaction_id: string
  global_position: string
  recorded_at: Date
  event_hash: string
}

/**
 * Held shared by every transaction that runs in-transaction steps, from its start to its commit;
 * taken alone by whatever must see the read models and the events at rest together (a rebuild's
 * swap, a verify's snapshot), so appends wait for it, briefly, and none is half-seen. A key of its
 * own: 7171001 guards the store's DDL, 7171002 the first start (which appends under it).
 */
export const IN_TRANSACTION_APPEND_LOCK = 7_171_020

function isStreamRevisionConflict(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown }
  return e?.code === '23505' && e.constraint === STREAM_REVISION_CONSTRAINT
}

function holds(expected: ExpectedRevision, actual: bigint): boolean {
  if (expected === 'any') return true
  if (expected === 'no_stream') return actual < 0n
  if (expected === 'stream_exists') return actual >= 0n
  return expected === actual
}

async function writeBatch(db: pg.Pool | pg.PoolClient, batch: PendingAppend[]): Promise<WrittenRow[]> {
  const streams: string[] = []
  const kinds: string[] = []
  const expectedRevisions: (string | null)[] = []
  const offsets: number[] = []
  const ids: string[] = []
  const types: string[] = []
  const data: unknown[] = []
  const metadata: unknown[] = []
  const contentHashes: (string | null)[] = []
  const seen = new Set<string>()
  for (const append of batch) {
    // Two appends to one stream would both be decided against the same revision.
    if (seen.has(append.stream)) throw new RangeError(`Stream ${append.stream} appears twice in one batch`)
    seen.add(append.stream)
    const expected = append.expectedRevision
    const kind = typeof expected === 'bigint' ? 'revision' : expected
    const revision = typeof expected === 'bigint' ? expected.toString() : null
    append.events.forEach((event, offset) => {
      streams.push(append.stream)
      kinds.push(kind)
      expectedRevisions.push(revision)
      offsets.push(offset)
      ids.push(event.id)
      types.push(event.type)
      data.push(event.data)
      metadata.push(event.metadata)
      contentHashes.push(
        append.contentHashes
          ? (append.contentHashes[offset] ?? null)
          : contentHashOf({ id: event.id, stream: append.stream, type: event.type, data: event.data, metadata: event.metadata }),
      )
    })
  }
  const result = await db.query<WrittenRow>({
    // Named: each connection parses and plans it once, not on every batch.
    name: APPEND_STATEMENT_NAME,
    text: APPEND_STATEMENT,
    values: [streams, kinds, expectedRevisions, offsets, ids, types, JSON.stringify(data), JSON.stringify(metadata), contentHashes],
  })
  return result.rows
}

/** Appends whose expectation failed: reported with the revision found, or decided again if it now holds. */
async function decideAgain(db: pg.Pool | pg.PoolClient, appends: PendingAppend[], attemptsLeft: number): Promise<AppendOutcome[]> {
  let revisions: bigint[]
  try {
    const result = await db.query<{ revision: string }>({
      name: 'es_current_revisions_v1',
      text: CURRENT_REVISIONS_STATEMENT,
      values: [appends.map((a) => a.stream)],
    })
    revisions = result.rows.map((row) => BigInt(row.revision))
  } catch (error) {
    return appends.map(() => ({ ok: false, error: error as Error }))
  }
  const outcomes: AppendOutcome[] = []
  for (const [i, append] of appends.entries()) {
    const actual = revisions[i]!
    if (attemptsLeft > 0 && holds(append.expectedRevision, actual)) {
      // Another process wrote the stream between our read and our insert: try once more, alone.
      try {
        outcomes.push(...(await attemptBatch(db, [append], attemptsLeft)))
      } catch (error) {
        outcomes.push({ ok: false, error: error as Error })
      }
    } else {
      outcomes.push({
        ok: false,
        error: new WrongExpectedVersionError(append.stream, append.expectedRevision, actual < 0n ? 'no_stream' : actual),
      })
    }
  }
  return outcomes
}

async function attemptBatch(db: pg.Pool | pg.PoolClient, batch: PendingAppend[], attemptsLeft: number): Promise<AppendOutcome[]> {
  let rows: WrittenRow[]
  try {
    rows = await writeBatch(db, batch)
  } catch (error) {
    // Nothing was written. A lone append that lost a race is decided again; in a bigger batch the
    // committer retries each append alone, so one stream's race does not fail its neighbours.
    if (batch.length === 1 && isStreamRevisionConflict(error)) return decideAgain(db, batch, attemptsLeft - 1)
    throw error
  }
  const written = new Map<string, WrittenRow[]>()
  for (const row of rows) {
    const list = written.get(row.stream_name)
    if (list) list.push(row)
    else written.set(row.stream_name, [row])
  }
  const outcomes: (AppendOutcome | undefined)[] = batch.map((append) => {
    const mine = written.get(append.stream) ?? []
    if (mine.length === 0) return undefined
    if (mine.length !== append.events.length) {
      return {
        ok: false,
        error: new Error(`The append statement wrote ${mine.length} of ${append.events.length} events to ${append.stream}`),
      }
    }
    let last = mine[0]!
    for (const row of mine) if (BigInt(row.stream_revision) > BigInt(last.stream_revision)) last = row
    return {
      ok: true,
      result: { nextExpectedRevision: BigInt(last.stream_revision), position: encodePosition(last.transaction_id, last.global_position) },
    }
  })
  const rejected = batch.filter((_, i) => outcomes[i] === undefined)
  if (rejected.length > 0) {
    const decided = await decideAgain(db, rejected, attemptsLeft - 1)
    let next = 0
    outcomes.forEach((outcome, i) => {
      if (outcome === undefined) outcomes[i] = decided[next++]
    })
  }
  return outcomes.map((outcome) => outcome!)
}

/**
 * Appends to distinct streams (the group committer never puts one stream twice in a batch).
 * Throws only when nothing was written, so the caller may retry each append alone.
 */
export function appendBatch(db: pg.Pool | pg.PoolClient, batch: PendingAppend[]): Promise<AppendOutcome[]> {
  return attemptBatch(db, batch, APPEND_BATCH_LIMITS.maxAttempts)
}

/** The append's events as recorded: its written rows (in revision order) with the events' own fields. */
function recordedOf(append: PendingAppend, rows: WrittenRow[]): RecordedEvent[] {
  const ordered = [...rows].sort((a, b) => (BigInt(a.stream_revision) < BigInt(b.stream_revision) ? -1 : 1))
  return ordered.map((row, i) => {
    const event = append.events[i]!
    return {
      id: event.id,
      stream: append.stream,
      revision: BigInt(row.stream_revision),
      position: encodePosition(row.transaction_id, row.global_position),
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      recordedAt: row.recorded_at,
      hash: row.event_hash,
    }
  })
}

async function currentRevisions(client: pg.PoolClient, streams: string[]): Promise<bigint[]> {
  const result = await client.query<{ revision: string }>({
    name: 'es_current_revisions_v1',
    text: CURRENT_REVISIONS_STATEMENT,
    values: [streams],
  })
  return result.rows.map((row) => BigInt(row.revision))
}

/** Two steps' transactions that locked rows in opposite orders, or a serialization failure: trying again may pass. */
function isDeadlockOrSerialization(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return code === '40P01' || code === '40001'
}

/** One try of the batch in a transaction with its steps; throws (rolled back) when nothing may commit. */
async function transactOnce(client: pg.PoolClient, batch: PendingAppend[]): Promise<AppendOutcome[]> {
  await client.query(`BEGIN; SELECT pg_advisory_xact_lock_shared(${IN_TRANSACTION_APPEND_LOCK})`)
  const rows = await writeBatch(client, batch)
  const written = new Map<string, WrittenRow[]>()
  for (const row of rows) written.set(row.stream_name, [...(written.get(row.stream_name) ?? []), row])
  const rejected = batch.filter((append) => !written.has(append.stream))
  const actual =
    rejected.length === 0
      ? []
      : await currentRevisions(
          client,
          rejected.map((a) => a.stream),
        )
  const outcomes: AppendOutcome[] = []
  const stepEvents = new Map<InTransactionStep, RecordedEvent[]>()
  for (const append of batch) {
    const mine = written.get(append.stream)
    if (!mine) {
      const revision = actual[rejected.indexOf(append)]!
      outcomes.push({
        ok: false,
        error: new WrongExpectedVersionError(append.stream, append.expectedRevision, revision < 0n ? 'no_stream' : revision),
      })
      continue
    }
    if (mine.length !== append.events.length)
      throw new Error(`The append statement wrote ${mine.length} of ${append.events.length} events to ${append.stream}`)
    const recorded = recordedOf(append, mine)
    if (append.inTransaction) {
      const seen = append.stepView ? append.stepView(recorded) : recorded
      const shared = stepEvents.get(append.inTransaction)
      if (shared) shared.push(...seen)
      else stepEvents.set(append.inTransaction, [...seen])
    }
    const last = recorded[recorded.length - 1]!
    outcomes.push({ ok: true, result: { nextExpectedRevision: last.revision, position: last.position } })
  }
  // Each step once, over its appends' events in batch order. One that throws fails the whole transaction:
  // the committer then retries each append alone, so only the append it fails on is refused.
  for (const [step, events] of stepEvents) await step(client, events)
  await client.query('COMMIT')
  return outcomes
}

/**
 * appendBatch in one transaction that also runs each append's in-transaction step. A lone append
 * that lost a race with another process (the unique revision index), or whose steps met a deadlock
 * or a serialization failure, is tried again, up to maxAttempts; throws only when nothing committed.
 */
export async function appendBatchInTransaction(pool: pg.Pool, batch: PendingAppend[]): Promise<AppendOutcome[]> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transactOnce(client, batch)
      } catch (error) {
        try {
          await client.query('ROLLBACK')
        } catch (rollbackError) {
          broken = rollbackError as Error
        }
        const again = isStreamRevisionConflict(error) || isDeadlockOrSerialization(error)
        if (broken || batch.length > 1 || !again || attempt >= APPEND_BATCH_LIMITS.maxAttempts) throw error
      }
    }
  } finally {
    // A connection whose rollback failed is dropped, not reused mid-transaction.
    client.release(broken)
  }
}
