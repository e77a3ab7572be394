// The SDK's verifyWebhook against the standardwebhooks package's own signatures: a genuine delivery gives
// its typed event; a changed body, another secret, a stale or future timestamp, a missing header, an
// unsigned version or a body that is no event each give a WebhookVerificationError naming why.
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { WebhookVerificationError, verifyWebhook } from '../../sdk/src/index.js'

const SECRET = `whsec_${Buffer.from('a secret of the test endpoint, 32b').toString('base64')}`
const OTHER_SECRET = `whsec_${Buffer.from('another endpoint entirely, 32 bytes').toString('base64')}`
const NOW = new Date('2026-03-01T12:00:00Z')
const now = () => NOW

const event = {
  id: 'evt_0f1e2d3c',
  timestamp: '2026-03-01T11:59:59.000Z',
  apiVersion: '1.0',
  organizationId: 'org_1',
  type: 'transfer.completed',
  data: { id: 'tfr_1', status: 'COMPLETED' },
}
const body = JSON.stringify(event)

/** Headers as the service sends them, signed by the reference implementation. */
function signed(payload: string, at: Date = NOW, secret: string = SECRET, id: string = event.id) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1_000)),
    'webhook-signature': new Webhook(secret).sign(id, at, payload),
  }
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
    return 'accepted'
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.reason : `other: ${String(error)}`
  }
}

t.test('a genuine delivery gives its event, from a string, bytes, Node headers or fetch Headers', async (t) => {
  const headers = signed(body)
  t.same(await verifyWebhook(body, headers, SECRET, { now }), event, 'string body, plain headers')
  t.same(await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), SECRET, { now }), event, 'bytes, Headers')
  const nodeStyle = {
    'Webhook-Id': headers['webhook-id'],
    'webhook-timestamp': [headers['webhook-timestamp']],
    'webhook-signature': headers['webhook-signature'],
  }
  t.same(await verifyWebhook(body, nodeStyle, SECRET, { now }), event, 'any header case, a header given as a list')
  const live = signed(body, new Date())
  t.same(await verifyWebhook(body, live, SECRET), new Webhook(SECRET).verify(body, live), 'the reference implementation agrees, now')
})

t.test('during a rotation, any one of the v1 signatures may match', async (t) => {
  const headers = signed(body)
  const old = signed(body, NOW, OTHER_SECRET)['webhook-signature']
  const both = { ...headers, 'webhook-signature': `${old} v2,bm90IHRoaXM= ${headers['webhook-signature']}` }
  t.same(await verifyWebhook(body, both, SECRET, { now }), event)
})

t.test('what is refused, and why', async (t) => {
  const headers = signed(body)
  t.equal(
    await refusal(verifyWebhook(body.replace('COMPLETED', 'FAILED'), headers, SECRET, { now })),
    'invalid_signature',
    'a changed body',
  )
  t.equal(await refusal(verifyWebhook(body, headers, OTHER_SECRET, { now })), 'invalid_signature', 'another secret')
  t.equal(
    await refusal(verifyWebhook(body, { ...headers, 'webhook-id': 'evt_other' }, SECRET, { now })),
    'invalid_signature',
    'another message id',
  )
  const v2Only = { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }
  t.equal(await refusal(verifyWebhook(body, v2Only, SECRET, { now })), 'invalid_signature', 'only v1 signatures count')
  const stale = signed(body, new Date(NOW.getTime() - 301_000))
  t.equal(await refusal(verifyWebhook(body, stale, SECRET, { now })), 'timestamp_too_old', 'signed over 5 minutes ago')
  t.same(await verifyWebhook(body, stale, SECRET, { now, toleranceSeconds: 600 }), event, 'within a wider tolerance')
  const future = signed(body, new Date(NOW.getTime() + 301_000))
  t.equal(await refusal(verifyWebhook(body, future, SECRET, { now })), 'timestamp_too_new', 'signed in the future')
  t.equal(
    await refusal(verifyWebhook(body, { ...headers, 'webhook-timestamp': '1.5e9' }, SECRET, { now })),
    'invalid_timestamp',
    'a timestamp that is not Unix seconds',
  )
  const { 'webhook-signature': _dropped, ...unsigned } = headers
  t.equal(await refusal(verifyWebhook(body, unsigned, SECRET, { now })), 'missing_headers', 'no signature header')
  t.equal(await refusal(verifyWebhook(body, headers, 'whsec_!!!', { now })), 'invalid_secret', 'a secret that is not base64')
  const many = { ...headers, 'webhook-signature': Array.from({ length: 9 }, () => headers['webhook-signature']).join(' ') }
  t.equal(await refusal(verifyWebhook(body, many, SECRET, { now })), 'invalid_signature', 'more signatures than a rotation has')
  const notEvent = JSON.stringify({ hello: 'world' })
  t.equal(await refusal(verifyWebhook(notEvent, signed(notEvent), SECRET, { now })), 'invalid_payload', 'signed, but not an event')
  t.equal(await refusal(verifyWebhook('not json', signed('not json'), SECRET, { now })), 'invalid_payload', 'signed, but not JSON')
  await t.rejects(verifyWebhook(body, headers, SECRET, { now, toleranceSeconds: -1 }), RangeError, 'a tolerance out of bounds')
})
