// Resource ids: `prefix_` + 10 characters of millisecond time + 16 random characters (Crockford
// base32), so ids sort by creation time and serve as pagination cursors.
import { secureRandomBytes } from './secureRandom.js'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

export const ID_PREFIXES = {
  organization: 'org',
  apiKey: 'key',
  webhookEndpoint: 'ep',
  customer: 'cus',
  transfer: 'tfr',
  document: 'doc',
  associatedPerson: 'asp',
  verificationSession: 'vsess',
  termsAgreement: 'tos',
  termsAcceptance: 'tosa',
  request: 'req',
} as const

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES]

function encodeTime(ms: number): string {
  let out = ''
  let rest = ms
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32]! + out
    rest = Math.floor(rest / 32)
  }
  return out
}

function encodeRandom(length: number): string {
  const bytes = secureRandomBytes(length)
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % 32]
  return out
}

export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  return `${prefix}_${encodeTime(nowMs)}${encodeRandom(16)}`
}
