// Where the local adapter's key-encryption keys come from: DATA_ENCRYPTION_KEY (32 bytes, base64
// or hex) with older ones in DATA_ENCRYPTION_KEY_PREVIOUS, or else a key file created at first
// start under DATA_DIR with mode 0600. Production refuses to start without an explicit key: a key
// file beside the data it protects is a sandbox convenience. A KEK's id is a fingerprint of it
// (a SHA-256 prefix), safe to store next to what it wrapped.
import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { Environment } from '../../domain/shared/environment.js'
import type { KeyManagement } from './keyManagement.js'
import { localKeyManagement } from './localKeyManagement.js'

export const KEY_FILE_NAME = 'data-encryption-keys.json'

export const LOCAL_KEY_LIMITS = { maxPreviousKeys: 20, maxKeysInFile: 100 } as const

export type LocalKeySource = {
  keks: Map<string, Buffer>
  currentKekId: string
  origin: 'environment' | 'file'
  /** The key file, when the keys come from one. */
  file?: string
}

export class KeySourceError extends Error {
  override readonly name = 'KeySourceError'
}

export const kekIdOf = (key: Buffer): string => `kek_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`

/** 32 bytes as base64 (44 characters) or hex (64); never echoes the value in an error. */
export function parseKek(text: string, name: string): Buffer {
  const trimmed = text.trim()
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64')
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && key.toString('base64') !== trimmed))
    throw new KeySourceError(`${name} must be 32 random bytes, as base64 (44 characters) or hex (64); try: openssl rand -base64 32`)
  return key
}

const keyFileSchema = z.object({
  version: z.literal(1),
  current: z.string(),
  keys: z
    .array(z.object({ id: z.string(), key: z.string(), createdAt: z.string() }))
    .min(1)
    .max(LOCAL_KEY_LIMITS.maxKeysInFile),
})
type KeyFile = z.infer<typeof keyFileSchema>

function writeKeyFileAtomically(file: string, content: KeyFile, exclusive: boolean): void {
  const target = exclusive ? file : `${file}.${process.pid}.tmp`
  // 0600 from the first byte: the key never sits in a readable file, not even briefly.
  const fd = openSync(target, exclusive ? 'wx' : 'w', 0o600)
  try {
    writeSync(fd, `${JSON.stringify(content, null, 2)}\n`)
  } finally {
    closeSync(fd)
  }
  if (!exclusive) renameSync(target, file)
}

function readKeyFile(file: string): KeyFile {
  // Tighten a key file someone loosened (a copy, an archive restore) rather than use it as is.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600)
  const parsed = keyFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
  if (!parsed.success) throw new KeySourceError(`${file} is not a data encryption key file`)
  return parsed.data
}

function fromFile(file: string): LocalKeySource {
  const content = readKeyFile(file)
  const keks = new Map(content.keys.map((k) => [k.id, parseKek(k.key, `${file} key ${k.id}`)]))
  for (const [id, key] of keks) if (kekIdOf(key) !== id) throw new KeySourceError(`${file}: key ${id} does not match its id`)
  if (!keks.has(content.current)) throw new KeySourceError(`${file}: the current key ${content.current} is missing`)
  return { keks, currentKekId: content.current, origin: 'file', file }
}

function newKeyEntry(): KeyFile['keys'][number] {
  const key = randomBytes(32)
  return { id: kekIdOf(key), key: key.toString('base64'), createdAt: new Date().toISOString() }
}

export function loadLocalKeySource(options: {
  encryptionKey: string | undefined
  previousKeys: string | undefined
  dataDir: string
  environment: Environment
}): LocalKeySource {
  if (options.encryptionKey) {
    const current = parseKek(options.encryptionKey, 'DATA_ENCRYPTION_KEY')
    const previous = (options.previousKeys ?? '')
      .split(',')
      .filter((s) => s.trim().length > 0)
      .map((s, i) => parseKek(s, `DATA_ENCRYPTION_KEY_PREVIOUS[${i}]`))
    if (previous.length > LOCAL_KEY_LIMITS.maxPreviousKeys) throw new KeySourceError('too many DATA_ENCRYPTION_KEY_PREVIOUS keys')
    const keks = new Map([...previous, current].map((k) => [kekIdOf(k), k]))
    return { keks, currentKekId: kekIdOf(current), origin: 'environment' }
  }
  if (options.environment === 'production')
    throw new KeySourceError(
      'production needs DATA_ENCRYPTION_KEY (32 random bytes, base64): it refuses to keep its key file beside its data',
    )
  mkdirSync(options.dataDir, { recursive: true })
  const file = path.join(options.dataDir, KEY_FILE_NAME)
  if (!existsSync(file)) {
    const entry = newKeyEntry()
    try {
      writeKeyFileAtomically(file, { version: 1, current: entry.id, keys: [entry] }, true)
    } catch (error) {
      // Another process (the CLI beside the server) created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  return fromFile(file)
}

/** Rotation in file mode: a new current KEK, the old ones kept to unwrap until re-wrapped. */
export function addKekToFile(file: string): LocalKeySource {
  const content = readKeyFile(file)
  if (content.keys.length >= LOCAL_KEY_LIMITS.maxKeysInFile) throw new KeySourceError(`${file} holds too many keys`)
  const entry = newKeyEntry()
  writeKeyFileAtomically(file, { version: 1, current: entry.id, keys: [...content.keys, entry] }, false)
  return fromFile(file)
}

/** The local adapter over a key source; a key file is read again when another process rotated it. */
export function keyManagementFor(source: LocalKeySource): KeyManagement {
  const file = source.file
  return localKeyManagement(source, file ? { reload: () => fromFile(file) } : {})
}
