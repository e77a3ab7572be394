// Checks a delivery's Standard Webhooks signature with the endpoint's secret before `listen` forwards it:
// its receiver listens on loopback, where any local process (or a web page's request) could post to it.
import { timingSafeEqual } from 'node:crypto'
import { signatureOf } from '../../webhooks/signing/signDelivery.js'

/** Standard Webhooks' default tolerance for the webhook-timestamp header. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60

export type SignatureCheck = { ok: true } | { ok: false; reason: string }

export function checkDeliverySignature(
  secret: string,
  headers: { id: string | undefined; timestamp: string | undefined; signature: string | undefined },
  body: Buffer,
  now: Date,
): SignatureCheck {
  const { id, timestamp, signature } = headers
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature' }
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'webhook-timestamp is not a number of seconds' }
  if (Math.abs(now.getTime() / 1_000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'webhook-timestamp is too far from now' }
  }
  const expected = Buffer.from(signatureOf(secret, id, Number(timestamp), body.toString('utf8')))
  // One `v1,<base64>` entry per secret valid at signing (two during the 24 hours after a rotation).
  const matches = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => {
      const given = Buffer.from(entry.slice(3))
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
  return matches ? { ok: true } : { ok: false, reason: 'no signature matches the signing secret' }
}
