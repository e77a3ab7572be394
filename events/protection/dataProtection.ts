// Field-level protection of secrets and personal data: the sensitive leaves of a value (found
// through its zod schema, domain/shared/sensitive) sealed with their subject's data key, the
// associated data being the record's id and the field name. Once the subject's key is shredded,
// every sealed leaf opens as ERASED, wherever it is stored: events, read models, documents.
import type { z } from 'zod'
import { ERASED, mapSensitive, sensitiveLeaves } from '../../domain/shared/sensitive/index.js'
import type { DataKey, DataKeyStore } from './dataKeys.js'
import { isSealedText, openBytes, openText, sealBytes, sealText, sealTextStable } from './fieldCipher.js'

export type DataProtection = {
  keys: DataKeyStore
  /** The value with its sensitive leaves sealed (a new object); throws SubjectErasedError once erased. */
  seal<T>(schema: z.ZodType, value: T, subject: string, record: string): Promise<T>
  /** `seal`, the same value always sealing to the same text (read models a rebuild and a verify reproduce). */
  sealStable<T>(schema: z.ZodType, value: T, subject: string, record: string): Promise<T>
  /** The value with its sealed leaves opened (ERASED once the subject is erased). */
  open<T>(schema: z.ZodType, value: T, subject: string, record: string): Promise<T>
  /** `open` with a key already looked up (a page of rows: one lookup for all their subjects). */
  openWith<T>(key: DataKey, schema: z.ZodType, value: T, record: string): T
  sealContent(subject: string, record: string, content: Buffer): Promise<Buffer>
  /** The bytes, or undefined once the subject is erased. */
  openContent(subject: string, record: string, sealed: Buffer): Promise<Buffer | undefined>
}

const aadOf = (record: string, field: string) => `${record}|${field}`
const CONTENT_FIELD = 'content'

/** Opens one leaf: sealed text with the key; text stored before encryption as is, unless erased. */
function openLeaf(key: DataKey, value: string, record: string, field: string): string {
  if (value === ERASED) return value
  if (key.state === 'shredded') return ERASED
  if (!isSealedText(value)) return value
  if (key.state === 'none') return ERASED // sealed, yet no key: it can never open again
  return openText(key.key, value, aadOf(record, field))
}

export function openWithKey<T>(key: DataKey, schema: z.ZodType, value: T, record: string): T {
  return mapSensitive(schema, value, (leaf, field) => openLeaf(key, leaf, record, field)) as T
}

export function dataProtection(keys: DataKeyStore): DataProtection {
  async function sealWith<T>(sealLeaf: typeof sealText, schema: z.ZodType, value: T, subject: string, record: string): Promise<T> {
    // Every leaf but the marker is sealed, whatever it looks like: text typed as "enc1..." too.
    const sealWithKey = (key: Buffer) =>
      mapSensitive(schema, value, (leaf, field) => (leaf === ERASED ? leaf : sealLeaf(key, leaf, aadOf(record, field)))) as T
    const cached = keys.cachedKeyForWriting(subject)
    if (cached) return sealWithKey(cached)
    // No key at hand: look for a leaf to seal first (an erased subject's ERASED leaves need none).
    if (!sensitiveLeaves(schema, value).some((leaf) => leaf.value !== ERASED)) return value
    return sealWithKey(await keys.keyForWriting(subject))
  }
  return {
    keys,
    seal: (schema, value, subject, record) => sealWith(sealText, schema, value, subject, record),
    sealStable: (schema, value, subject, record) => sealWith(sealTextStable, schema, value, subject, record),
    async open(schema, value, subject, record) {
      return openWithKey(await keys.keyForReading(subject), schema, value, record)
    },
    openWith: openWithKey,
    async sealContent(subject, record, content) {
      return sealBytes(await keys.keyForWriting(subject), content, aadOf(record, CONTENT_FIELD))
    },
    async openContent(subject, record, sealed) {
      const key = await keys.keyForReading(subject)
      if (key.state !== 'active') return undefined
      return openBytes(key.key, sealed, aadOf(record, CONTENT_FIELD))
    },
  }
}
