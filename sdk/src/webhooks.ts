// Verifying a webhook delivery as Standard Webhooks defines it: HMAC-SHA256 over `id.timestamp.body` with the
// base64 part of the endpoint's `whsec_` secret, any of the `v1,<base64>` signatures (two during a secret
// rotation), a timestamp within the tolerance. WebCrypto only, so it runs alike in Node 20 and browsers.
import { WebhookVerificationError } from './errors.js'

/** The service's webhook envelope (webhooks/envelope.ts): `type` names the event, `data` is the resource. */
export type WebhookEvent = {
  /** evt_...: the same on every retry and resend of the message, so a receiver can drop duplicates by it. */
  id: string
  timestamp: string
  apiVersion: string
  organizationId: string
  type: string
  data: Record<string, unknown>
}

/** Headers as fetch gives them, or as Node's http module does (a repeated header is a list). */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>

export const WEBHOOK_VERIFY_LIMITS = {
  /** Standard Webhooks' default: a delivery signed more than 5 minutes away from now is a replay. */
  defaultToleranceSeconds: 300,
  maxToleranceSeconds: 86_400,
  /** More signatures than this in one header is not a rotation: refused unread. */
  maxSignatures: 8,
} as const

const SECRET_PREFIX = 'whsec_'
const encoder = new TextEncoder()

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : headers[key]
  return typeof value === 'string' ? value : value?.[0]
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null) return false
  const v: Record<string, unknown> = { ...value }
  return (
    ['id', 'timestamp', 'apiVersion', 'organizationId', 'type'].every((k) => typeof v[k] === 'string') &&
    typeof v.data === 'object' &&
    v.data !== null &&
    !Array.isArray(v.data)
  )
}

export type VerifyWebhookOptions = {
  /** How far the signed timestamp may be from now, either way. */
  toleranceSeconds?: number
  /** Now (tests). */
  now?: () => Date
}

/**
 * The event of a genuine delivery; a WebhookVerificationError otherwise. `rawBody` is the body exactly as
 * received (before any JSON parsing: a re-serialized body no longer matches its signature).
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const tolerance = options.toleranceSeconds ?? WEBHOOK_VERIFY_LIMITS.defaultToleranceSeconds
  if (!Number.isInteger(tolerance) || tolerance < 0 || tolerance > WEBHOOK_VERIFY_LIMITS.maxToleranceSeconds) {
    throw new RangeError(`toleranceSeconds must be an integer from 0 to ${WEBHOOK_VERIFY_LIMITS.maxToleranceSeconds}`)
  }
  const keyBytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret)
  if (!keyBytes || keyBytes.length === 0) throw new WebhookVerificationError('invalid_secret', 'the secret is not whsec_ and base64')

  const id = headerOf(headers, 'webhook-id')
  const timestamp = headerOf(headers, 'webhook-timestamp')
  const signatures = headerOf(headers, 'webhook-signature')
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required')
  }
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not Unix seconds')
  const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1_000)
  const signedAt = Number(timestamp)
  if (signedAt < nowSeconds - tolerance) throw new WebhookVerificationError('timestamp_too_old', 'the delivery was signed too long ago')
  if (signedAt > nowSeconds + tolerance) throw new WebhookVerificationError('timestamp_too_new', 'the delivery is signed in the future')

  const entries = signatures.split(' ').filter((s) => s.length > 0)
  if (entries.length > WEBHOOK_VERIFY_LIMITS.maxSignatures) throw new WebhookVerificationError('invalid_signature', 'too many signatures')
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody
  const prefix = encoder.encode(`${id}.${timestamp}.`)
  const signed = new Uint8Array(prefix.length + body.length)
  signed.set(prefix)
  signed.set(body, prefix.length)
  const key = await globalThis.crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
  let verified = false
  for (const entry of entries) {
    const [version, signature] = entry.split(',', 2)
    const bytes = version === 'v1' && signature ? base64Bytes(signature) : undefined
    // subtle.verify compares in constant time.
    if (bytes && (await globalThis.crypto.subtle.verify('HMAC', key, bytes, signed))) verified = true
  }
  if (!verified) throw new WebhookVerificationError('invalid_signature', 'no v1 signature matches the body')

  let event: unknown
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body))
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON')
  }
  if (!isEvent(event)) throw new WebhookVerificationError('invalid_payload', 'the body is not a webhook event')
  return event
}
