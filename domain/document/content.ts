// Document content rules: allowed types, size limit, strict base64, and a check that the bytes
// really are what contentType says (magic numbers), so a renamed executable is refused.
import { createHash } from 'node:crypto'

export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number]

export const DOCUMENT_LIMITS = {
  /** Largest document, decoded. */
  maxBytes: 5 * 1024 * 1024,
  fileNameMaxLength: 255,
  /** Base64 of maxBytes, rounded up to whole 4-character groups. */
  maxBase64Length: Math.ceil((5 * 1024 * 1024) / 3) * 4,
} as const

/** Request body limit of the upload route: the base64 content plus room for the other fields. */
export const DOCUMENT_UPLOAD_BODY_LIMIT_BYTES = DOCUMENT_LIMITS.maxBase64Length + 16 * 1024

const MAGIC: Record<DocumentContentType, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
}

// No nested quantifiers: a grouped pattern overflows the regex stack on multi-megabyte input.
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/

/** Bytes of a canonical base64 string, or undefined when it is not one (checked by a round trip). */
export function decodeBase64(value: string): Buffer | undefined {
  if (value.length % 4 !== 0 || !BASE64_CHARS.test(value)) return undefined
  const bytes = Buffer.from(value, 'base64')
  return bytes.toString('base64') === value ? bytes : undefined
}

export function matchesContentType(bytes: Buffer, contentType: DocumentContentType): boolean {
  const magic = MAGIC[contentType]
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b)
}

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')
