// AES-256-GCM with a data key, from node:crypto. The associated data (the aggregate id and the
// field name) is authenticated but not stored: ciphertext moved to another record or field fails
// to open. Text becomes `enc1.<base64url(iv | ciphertext | tag)>`; bytes become a version byte,
// iv, ciphertext and tag.
import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto'
// Pooled CSPRNG draws: an IV per sealed field and a key per new subject are many small draws.
import { secureRandomBytes } from '../../domain/secureRandom.js'

export const CIPHER_LIMITS = {
  keyBytes: 32,
  ivBytes: 12,
  tagBytes: 16,
  /** A sealed text field (a few hundred characters at most once opened) stays far below this. */
  maxSealedTextLength: 100_000,
} as const

/** What every sealed text starts with (a JSON text holding none has nothing to open). */
export const SEALED_TEXT_PREFIX = 'enc1.'
const TEXT_PREFIX = SEALED_TEXT_PREFIX
const BYTES_VERSION = 1

export class CiphertextError extends Error {
  override readonly name = 'CiphertextError'
}

function seal(key: Buffer, plain: Buffer, aad: string, iv: Buffer = secureRandomBytes(CIPHER_LIMITS.ivBytes)): Buffer {
  if (key.length !== CIPHER_LIMITS.keyBytes) throw new RangeError('a data key is 32 bytes')
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(aad, 'utf8'))
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([iv, body, cipher.getAuthTag()])
}

function open(key: Buffer, sealed: Buffer, aad: string): Buffer {
  const { ivBytes, tagBytes } = CIPHER_LIMITS
  if (sealed.length < ivBytes + tagBytes) throw new CiphertextError('ciphertext too short')
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, ivBytes))
  decipher.setAAD(Buffer.from(aad, 'utf8'))
  decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes))
  try {
    return Buffer.concat([decipher.update(sealed.subarray(ivBytes, sealed.length - tagBytes)), decipher.final()])
  } catch {
    // Wrong key, wrong associated data or altered bytes: never say which, never echo the bytes.
    throw new CiphertextError('ciphertext does not open with this key and associated data')
  }
}

export function sealText(key: Buffer, plain: string, aad: string): string {
  return TEXT_PREFIX + seal(key, Buffer.from(plain, 'utf8'), aad).toString('base64url')
}

/**
 * A synthetic IV (as SIV modes make one): an HMAC of the associated data and the text, under a key
 * derived from the data key. The same text in the same record and field seals to the same bytes,
 * and different texts get different IVs, so GCM never sees one IV with two plaintexts.
 */
// The IV key derived from each data key, once (the data keys are the cache's own cached objects).
const ivKeys = new WeakMap<Buffer, Buffer>()

function syntheticIv(key: Buffer, plain: string, aad: string): Buffer {
  let ivKey = ivKeys.get(key)
  if (!ivKey) {
    ivKey = createHmac('sha256', key).update('enc1 synthetic iv').digest()
    ivKeys.set(key, ivKey)
  }
  return createHmac('sha256', ivKey).update(aad).update('\0').update(plain).digest().subarray(0, CIPHER_LIMITS.ivBytes)
}

/** `sealText` with a synthetic IV: stable output for read models that a rebuild must reproduce byte for byte. */
export function sealTextStable(key: Buffer, plain: string, aad: string): string {
  return TEXT_PREFIX + seal(key, Buffer.from(plain, 'utf8'), aad, syntheticIv(key, plain, aad)).toString('base64url')
}

export function isSealedText(value: string): boolean {
  return value.startsWith(TEXT_PREFIX)
}

export function openText(key: Buffer, sealed: string, aad: string): string {
  if (!isSealedText(sealed) || sealed.length > CIPHER_LIMITS.maxSealedTextLength) throw new CiphertextError('not a sealed text')
  return open(key, Buffer.from(sealed.slice(TEXT_PREFIX.length), 'base64url'), aad).toString('utf8')
}

export function sealBytes(key: Buffer, plain: Buffer, aad: string): Buffer {
  return Buffer.concat([Buffer.from([BYTES_VERSION]), seal(key, plain, aad)])
}

export function isSealedBytes(value: Buffer): boolean {
  return value.length > CIPHER_LIMITS.ivBytes + CIPHER_LIMITS.tagBytes && value[0] === BYTES_VERSION
}

export function openBytes(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed[0] !== BYTES_VERSION) throw new CiphertextError('unknown sealed bytes version')
  return open(key, sealed.subarray(1), aad)
}

export function newDataKey(): Buffer {
  return secureRandomBytes(CIPHER_LIMITS.keyBytes)
}
