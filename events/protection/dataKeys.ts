// Data keys by subject, in Postgres: created on first use (wrapped by the current KEK), cached
// unwrapped for a short while, shredded for erasure, re-wrapped by KEK rotation. A shredded subject
// never gets a new key, so nothing new can be written for an erased customer.
import { type Kysely, sql } from 'kysely'
import { newDataKey } from './fieldCipher.js'
import type { KeyManagement } from './keyManagement.js'
import type { DataKeyDatabase } from './tables.js'

export const DATA_KEY_LIMITS = {
  /** Unwrapped keys kept in memory; the oldest go first. */
  cacheEntries: 20_000,
  /**
   * How long another process may keep using a key after it was shredded elsewhere (this process
   * forgets it at once). Also bounds how long an unwrapped key stays in memory unused.
   */
  cacheTtlMs: 5_000,
  maxSubjectLength: 200,
  maxReasonLength: 500,
  /** Rows re-wrapped per statement by KEK rotation. */
  rewrapBatch: 500,
  /** New keys inserted in one statement at most (concurrent creations share a round trip). */
  maxKeysPerInsert: 500,
  /** Subjects looked up in one statement (a list page's customers). */
  maxSubjectsPerLookup: 1_000,
} as const

export type DataKey =
  { subject: string; state: 'active'; key: Buffer } | { subject: string; state: 'shredded' } | { subject: string; state: 'none' }

export class SubjectErasedError extends Error {
  override readonly name = 'SubjectErasedError'
  constructor(readonly subject: string) {
    super(`the data of ${subject} was erased: nothing sensitive can be written for it`)
  }
}

type Row = { subject: string; kek_id: string | null; wrapped_key: Buffer | null }

export type DataKeyStore = {
  /** The subject's key, created when it has none; throws SubjectErasedError once shredded. */
  keyForWriting(subject: string): Promise<Buffer>
  /** The subject's key for writing when this process has it at hand (no I/O); undefined otherwise. */
  cachedKeyForWriting(subject: string): Buffer | undefined
  /** The subject's key as it stands: active, shredded, or none (never written). */
  keyForReading(subject: string): Promise<DataKey>
  keysForReading(subjects: readonly string[]): Promise<Map<string, DataKey>>
  /** Destroys the key; true when this call shredded it (false: already shredded). */
  shred(subject: string, reason: string): Promise<boolean>
  /** Re-wraps every key not wrapped by the current KEK; returns how many. */
  rewrapAll(): Promise<{ rewrapped: number }>
}

function checkSubject(subject: string): void {
  if (subject.length === 0 || subject.length > DATA_KEY_LIMITS.maxSubjectLength)
    throw new RangeError('data key subject length out of bounds')
}

export function postgresDataKeyStore(
  db: Kysely<DataKeyDatabase>,
  kms: KeyManagement,
  /** Where new keys are inserted (tables.ts, openDataKeyCreationDatabase); `db` by default. */
  creations: Kysely<DataKeyDatabase> = db,
): DataKeyStore {
  const cache = new Map<string, { key: DataKey; expiresAt: number }>()

  function remember(key: DataKey): DataKey {
    if (key.state === 'none') return key // a key may be created any moment: never cache its absence
    cache.delete(key.subject)
    if (cache.size >= DATA_KEY_LIMITS.cacheEntries) cache.delete(cache.keys().next().value!)
    // A shredded key stays shredded: remembered as long as the cache keeps it.
    const ttl = key.state === 'shredded' ? Number.POSITIVE_INFINITY : DATA_KEY_LIMITS.cacheTtlMs
    cache.set(key.subject, { key, expiresAt: Date.now() + ttl })
    return key
  }

  function cached(subject: string): DataKey | undefined {
    const hit = cache.get(subject)
    if (!hit) return undefined
    if (hit.expiresAt > Date.now()) return hit.key
    cache.delete(subject)
    return undefined
  }

  async function fromRow(row: Row): Promise<DataKey> {
    if (row.wrapped_key === null || row.kek_id === null) return { subject: row.subject, state: 'shredded' }
    const key = await kms.unwrap({ kekId: row.kek_id, wrapped: row.wrapped_key }, row.subject)
    return { subject: row.subject, state: 'active', key }
  }

  // New keys of concurrent commands go in one INSERT (one round trip for all of them): a batch is
  // sent when none is in flight, and what arrives meanwhile waits for the next one.
  type NewKeyRow = { subject: string; kek_id: string; wrapped_key: Buffer }
  const pending: { row: NewKeyRow; done: (inserted: boolean) => void; failed: (error: unknown) => void }[] = []
  let inFlight = false
  async function flushNewKeys(): Promise<void> {
    inFlight = true
    while (pending.length > 0) {
      const batch = pending.splice(0, DATA_KEY_LIMITS.maxKeysPerInsert)
      // One subject twice in a batch: the first row is inserted, the second finds it stored.
      const rows = [...new Map(batch.map((b) => [b.row.subject, b.row])).values()]
      try {
        const inserted = await creations
          .insertInto('data_keys')
          .values(rows)
          .onConflict((oc) => oc.column('subject').doNothing())
          .returning(['subject', 'wrapped_key'])
          .execute()
        const won = new Map(inserted.map((r) => [r.subject, r.wrapped_key]))
        for (const b of batch) b.done(won.get(b.row.subject)?.equals(b.row.wrapped_key) ?? false)
      } catch (error) {
        for (const b of batch) b.failed(error)
      }
    }
    inFlight = false
  }
  function insertKey(row: NewKeyRow): Promise<boolean> {
    return new Promise((done, failed) => {
      pending.push({ row, done, failed })
      if (!inFlight) void flushNewKeys()
    })
  }

  async function keysForReading(subjects: readonly string[]): Promise<Map<string, DataKey>> {
    const found = new Map<string, DataKey>()
    const missing: string[] = []
    for (const subject of new Set(subjects)) {
      checkSubject(subject)
      const hit = cached(subject)
      if (hit) found.set(subject, hit)
      else missing.push(subject)
    }
    for (let i = 0; i < missing.length; i += DATA_KEY_LIMITS.maxSubjectsPerLookup) {
      const part = missing.slice(i, i + DATA_KEY_LIMITS.maxSubjectsPerLookup)
      const rows = await db.selectFrom('data_keys').select(['subject', 'kek_id', 'wrapped_key']).where('subject', 'in', part).execute()
      for (const row of rows) found.set(row.subject, remember(await fromRow(row)))
    }
    for (const subject of missing) if (!found.has(subject)) found.set(subject, { subject, state: 'none' })
    return found
  }

  return {
    cachedKeyForWriting(subject) {
      const hit = cached(subject)
      return hit?.state === 'active' ? hit.key : undefined
    },
    async keyForWriting(subject) {
      checkSubject(subject)
      const hit = cached(subject)
      if (hit?.state === 'active') return hit.key
      if (hit?.state === 'shredded') throw new SubjectErasedError(subject)
      const fresh = newDataKey()
      const wrapped = await kms.wrap(fresh, subject)
      if (await insertKey({ subject, kek_id: wrapped.kekId, wrapped_key: wrapped.wrapped }))
        return (remember({ subject, state: 'active', key: fresh }) as { key: Buffer }).key
      // Created by another command first (or shredded): use what is stored.
      const stored = (await keysForReading([subject])).get(subject)!
      if (stored.state === 'active') return stored.key
      throw new SubjectErasedError(subject)
    },
    async keyForReading(subject) {
      return (await keysForReading([subject])).get(subject)!
    },
    keysForReading,
    async shred(subject, reason) {
      checkSubject(subject)
      const why = reason.slice(0, DATA_KEY_LIMITS.maxReasonLength)
      // An upsert: a subject that never had a key is shredded too, so none is created later.
      const row = await sql<{ shredded_now: boolean }>`
        INSERT INTO data_keys (subject, kek_id, wrapped_key, shredded_at, shred_reason) VALUES (${subject}, NULL, NULL, now(), ${why})
        ON CONFLICT (subject) DO UPDATE SET kek_id = NULL, wrapped_key = NULL, shredded_at = now(), shred_reason = ${why}
          WHERE data_keys.shredded_at IS NULL
        RETURNING true AS shredded_now`.execute(db)
      remember({ subject, state: 'shredded' })
      return row.rows.length > 0
    },
    async rewrapAll() {
      let rewrapped = 0
      for (;;) {
        const rows = await db
          .selectFrom('data_keys')
          .select(['subject', 'kek_id', 'wrapped_key'])
          .where('wrapped_key', 'is not', null)
          .where('kek_id', '<>', kms.currentKekId)
          .orderBy('subject')
          .limit(DATA_KEY_LIMITS.rewrapBatch)
          .execute()
        if (rows.length === 0) return { rewrapped }
        for (const row of rows) {
          const key = await kms.unwrap({ kekId: row.kek_id!, wrapped: row.wrapped_key! }, row.subject)
          const next = await kms.wrap(key, row.subject)
          // Only if unchanged meanwhile (a shred in between wins).
          const result = await db
            .updateTable('data_keys')
            .set({ kek_id: next.kekId, wrapped_key: next.wrapped })
            .where('subject', '=', row.subject)
            .where('kek_id', '=', row.kek_id)
            .executeTakeFirst()
          rewrapped += Number(result.numUpdatedRows)
        }
      }
    },
  }
}
