// Standard Webhooks signing: HMAC-SHA256 over `id.timestamp.body` with the base64-decoded part of
// each `whsec_` secret, one space-separated `v1,<base64>` entry per secret that is valid now
// (two during the 24 hours after a rotation). Called per attempt: a fresh timestamp every time.
import { createHmac } from 'node:crypto'

const SECRET_PREFIX = 'whsec_'

export type SignatureHeaders = {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a signing secret starts with whsec_')
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  return createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')
}

export function signDelivery(messageId: string, body: string, secrets: readonly string[], now: Date): SignatureHeaders {
  // An endpoint always has a current secret; signing with none would send an unverifiable request.
  if (secrets.length === 0) throw new Error(`no valid signing secret for message ${messageId}`)
  const timestampSeconds = Math.floor(now.getTime() / 1_000)
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => `v1,${signatureOf(s, messageId, timestampSeconds, body)}`).join(' '),
  }
}
