// listen's check of a delivery before it forwards it: the service's signature (either of two after a
// rotation) passes; another secret, a changed body, a stale timestamp or missing headers do not.
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { SIGNATURE_TOLERANCE_SECONDS, checkDeliverySignature } from '../../cli/devtools/deliverySignature.js'
import { signDelivery } from '../../webhooks/signing/signDelivery.js'

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
const OTHER = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
const now = new Date('2026-11-29T12:00:00Z')
const body = '{"id":"evt_1","type":"customer.created","data":{"name":"Zoë"}}'

function headersFor(secrets: string[], at = now) {
  const h = signDelivery('evt_1', body, secrets, at)
  return { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] }
}

t.test('the service signature passes, and agrees with the standardwebhooks library', async (t) => {
  const headers = headersFor([SECRET])
  t.same(checkDeliverySignature(SECRET, headers, Buffer.from(body), now), { ok: true })
  const library = new Webhook(SECRET)
  const signed = library.sign('evt_1', now, body)
  t.same(checkDeliverySignature(SECRET, { ...headers, signature: signed }, Buffer.from(body), now), { ok: true })
})

t.test('after a rotation either secret verifies the two-entry header', async (t) => {
  const headers = headersFor([OTHER, SECRET])
  t.ok(checkDeliverySignature(SECRET, headers, Buffer.from(body), now).ok, 'the retired one')
  t.ok(checkDeliverySignature(OTHER, headers, Buffer.from(body), now).ok, 'the new one')
})

t.test('refused: another secret, another body, a stale or odd timestamp, missing headers', async (t) => {
  const headers = headersFor([SECRET])
  t.match(checkDeliverySignature(OTHER, headers, Buffer.from(body), now), { ok: false, reason: /no signature matches/ })
  t.match(checkDeliverySignature(SECRET, headers, Buffer.from(`${body} `), now), { ok: false })
  const later = new Date(now.getTime() + (SIGNATURE_TOLERANCE_SECONDS + 1) * 1_000)
  t.match(checkDeliverySignature(SECRET, headers, Buffer.from(body), later), { ok: false, reason: /too far/ })
  t.match(checkDeliverySignature(SECRET, { ...headers, timestamp: '1e9' }, Buffer.from(body), now), { ok: false })
  t.match(checkDeliverySignature(SECRET, { ...headers, signature: undefined }, Buffer.from(body), now), { ok: false, reason: /missing/ })
  t.match(checkDeliverySignature(SECRET, { ...headers, signature: 'v1,short' }, Buffer.from(body), now), { ok: false })
})
