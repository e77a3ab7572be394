// Unit tests of webhook delivery's pure parts and single steps: address classes, the egress
// decision (with a fake resolver), the pinned connection, Standard Webhooks signatures checked
// with the standardwebhooks package, and the retry schedule with jitter.
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { classifyAddress, isAllowedAddress } from '../../webhooks/egress/addressClass.js'
import { postDelivery } from '../../webhooks/egress/postDelivery.js'
import { type Resolver, resolveTarget } from '../../webhooks/egress/resolveTarget.js'
import { assertRetrySchedule, nextDelayMs, withJitter } from '../../webhooks/dispatcher/retrySchedule.js'
import { signDelivery } from '../../webhooks/signing/signDelivery.js'
import { buildEnvelope, messageIdOf } from '../../webhooks/envelope.js'
import { startReceiver } from './deliveryReceiver.js'

t.test('address classes: every non-public range, IPv4 and IPv6, including embedded IPv4', async (t) => {
  const expected: Record<string, string> = {
    '127.0.0.1': 'loopback',
    '127.255.0.9': 'loopback',
    '::1': 'loopback',
    '::ffff:127.0.0.1': 'loopback',
    '::ffff:7f00:1': 'loopback',
    '10.0.0.1': 'private',
    '172.16.5.4': 'private',
    '172.31.255.255': 'private',
    '192.168.0.1': 'private',
    'fd00::1': 'private',
    'fd00:ec2::254': 'private',
    '169.254.169.254': 'link_local',
    'fe80::1': 'link_local',
    'fe80::1%eth0': 'link_local',
    '100.64.0.1': 'shared',
    '0.0.0.0': 'unspecified',
    '::': 'unspecified',
    '224.0.0.1': 'multicast',
    'ff02::1': 'multicast',
    '255.255.255.255': 'reserved',
    '192.0.2.1': 'reserved',
    '2001:db8::1': 'reserved',
    '64:ff9b::a00:1': 'private',
    '2002:a9fe:a9fe::1': 'link_local',
    '::ffff:10.0.0.1': 'private',
    '8.8.8.8': 'public',
    '172.32.0.1': 'public',
    '93.184.216.34': 'public',
    '2606:4700:4700::1111': 'public',
    '::ffff:8.8.8.8': 'public',
    'example.com': 'invalid',
  }
  for (const [address, kind] of Object.entries(expected)) t.equal(classifyAddress(address), kind, address)
  t.same(isAllowedAddress('127.0.0.1', 'sandbox'), { allowed: true, kind: 'loopback' }, 'sandbox allows loopback')
  t.same(isAllowedAddress('127.0.0.1', 'production'), { allowed: false, kind: 'loopback' })
  t.equal(isAllowedAddress('10.0.0.1', 'sandbox').allowed, false, 'sandbox still refuses private ranges')
  t.equal(isAllowedAddress('169.254.169.254', 'sandbox').allowed, false, 'and metadata')
  t.equal(isAllowedAddress('8.8.8.8', 'production').allowed, true)
})

t.test('egress decision: https only in production, every resolved address public, the first one used', async (t) => {
  const dns: Record<string, string[]> = {
    'good.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'bad.example': ['93.184.216.34', '10.0.0.1'],
    'none.example': [],
  }
  let lookups = 0
  const resolver: Resolver = async (host) => {
    lookups++
    const answers = dns[host]
    if (!answers) throw new Error(`ENOTFOUND ${host}`)
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  const ok = await resolveTarget('https://good.example/hook?x=1', 'production', resolver)
  t.match(ok, { ok: true, target: { address: '93.184.216.34', family: 4 } })
  t.match(
    await resolveTarget('https://bad.example/hook', 'production', resolver),
    {
      ok: false,
      reason: 'egress refused: destination not allowed',
      detail: 'bad.example resolves to 10.0.0.1 (private); production calls public addresses only',
    },
    'the stored reason is generic, the detail is for the log',
  )
  t.match(await resolveTarget('http://good.example/hook', 'production', resolver), {
    ok: false,
    reason: 'egress refused: scheme not allowed in this environment',
    detail: /http: URLs are not called in production/,
  })
  t.match(await resolveTarget('http://good.example/hook', 'sandbox', resolver), { ok: true })
  t.match(await resolveTarget('ftp://good.example/hook', 'sandbox', resolver), { ok: false })
  t.match(await resolveTarget('https://user:pw@good.example/', 'production', resolver), { ok: false, reason: /credentials/ })
  t.match(
    await resolveTarget('https://localhost./', 'production', resolver),
    { ok: false, reason: 'egress refused: destination not allowed', detail: /localhost\. \(loopback\)/ },
    'loopback names are refused without a lookup',
  )
  t.match(await resolveTarget('https://none.example/', 'production', resolver), { ok: false, reason: /no address/ })
  t.match(await resolveTarget('https://missing.example/', 'production', resolver), {
    ok: false,
    reason: /DNS lookup of missing.example failed/,
  })
  const hanging: Resolver = () => new Promise(() => undefined)
  t.match(
    await resolveTarget('https://slow.example/', 'production', hanging, 50),
    { ok: false, reason: /DNS lookup of slow.example failed: timed out after 50 ms/ },
    'a lookup is bounded by the attempt timeout',
  )
  const before = lookups
  t.match(await resolveTarget('https://169.254.169.254/latest', 'production', resolver), {
    ok: false,
    reason: 'egress refused: destination not allowed',
    detail: /169\.254\.169\.254 \(link_local\)/,
  })
  t.match(await resolveTarget('https://[::ffff:127.0.0.1]/', 'production', resolver), { ok: false, detail: /loopback/ })
  t.match(
    await resolveTarget('https://0x7f000001/', 'production', resolver),
    { ok: false, detail: /^127\.0\.0\.1 \(loopback\)/ },
    'hex, decimal and octal forms are the address the parser makes of them',
  )
  t.equal(lookups, before, 'literal addresses need no lookup and are checked as they are')
})

t.test('the connection goes to the checked address, not to a fresh DNS answer', async (t) => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  // This name resolves nowhere: the request can only reach the receiver through the pinned address.
  const target = { url: new URL(`http://pinned.invalid:${receiver.port}/pinned`), address: '127.0.0.1', family: 4 as const }
  const outcome = await postDelivery(target, { 'content-type': 'application/json' }, '{"a":1}', { timeoutMs: 2_000, maxBodyBytes: 10 })
  t.match(outcome, { status: 200, body: 'ok', error: null, aborted: false })
  t.equal(receiver.forPath('/pinned')[0]?.headers.host, `pinned.invalid:${receiver.port}`, 'the Host header names the endpoint')
  receiver.on('/binary', () => ({ status: 200, body: 'a\u0000b' }))
  t.equal(
    (
      await postDelivery({ ...target, url: new URL(`http://pinned.invalid:${receiver.port}/binary`) }, {}, '', {
        timeoutMs: 2_000,
        maxBodyBytes: 100,
      })
    ).body,
    'a\uFFFDb',
    'NUL bytes made storable',
  )
  const controller = new AbortController()
  receiver.on('/hang', () => ({ status: 200, hang: true }))
  const pending = postDelivery({ ...target, url: new URL(`http://pinned.invalid:${receiver.port}/hang`) }, {}, '', {
    timeoutMs: 5_000,
    maxBodyBytes: 100,
    signal: controller.signal,
  })
  await receiver.waitFor(() => receiver.forPath('/hang').length === 1, 2_000)
  controller.abort()
  t.match(await pending, { status: 0, aborted: true, error: /interrupted/ }, 'a stopping dispatcher aborts')
})

t.test('signatures: one v1 entry per secret, verifiable with standardwebhooks, fresh per timestamp', async (t) => {
  const secrets = [`whsec_${Buffer.alloc(32, 1).toString('base64')}`, `whsec_${Buffer.alloc(32, 2).toString('base64')}`]
  const { body } = buildEnvelope({
    storedEventId: '6f1c2b1e-0000-4000-8000-000000000001',
    recordedAt: new Date('2026-01-02T03:04:05.000Z'),
    organizationId: 'org_1',
    event: { type: 'webhook.test', data: { a: 1 }, tags: [] },
  })
  const id = messageIdOf('6f1c2b1e-0000-4000-8000-000000000001')
  const now = new Date()
  const headers = signDelivery(id, body, secrets, now)
  t.equal(headers['webhook-id'], id)
  t.equal(headers['webhook-timestamp'], String(Math.floor(now.getTime() / 1000)))
  t.equal(headers['webhook-signature'].split(' ').length, 2)
  for (const secret of secrets) t.same(new Webhook(secret).verify(body, headers), JSON.parse(body), 'verifies with each secret')
  t.equal(
    headers['webhook-signature'].split(' ')[0],
    new Webhook(secrets[0]!).sign(id, now, body),
    'identical to the reference implementation',
  )
  const later = signDelivery(id, body, secrets, new Date(now.getTime() + 1_000))
  t.not(later['webhook-signature'], headers['webhook-signature'], 'a new timestamp signs differently')
  t.throws(() => new Webhook(secrets[0]!).verify(`${body} `, headers), 'a changed body fails')
  t.throws(() => signDelivery(id, body, [], now), 'no secret, no delivery')
})

t.test('retry schedule: entry i is the wait before attempt i + 1, with ±20 % jitter, then the end', async (t) => {
  const schedule = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]
  t.equal(
    nextDelayMs(schedule, 0, () => 0.5),
    0,
    'first attempt immediately',
  )
  t.equal(
    nextDelayMs(schedule, 1, () => 0.5),
    5_000,
  )
  t.equal(
    nextDelayMs(schedule, 7, () => 0.5),
    36_000_000,
  )
  t.equal(nextDelayMs(schedule, 8), undefined, 'eight attempts in all')
  t.equal(
    withJitter(10_000, () => 0),
    8_000,
  )
  t.equal(
    withJitter(10_000, () => 1),
    12_000,
  )
  for (let i = 0; i < 100; i++) {
    const d = withJitter(300_000)
    t.ok(d >= 240_000 && d <= 360_000, 'within ±20 %')
  }
  t.throws(() => assertRetrySchedule([]))
  t.throws(() => assertRetrySchedule([-1]))
  t.doesNotThrow(() => assertRetrySchedule(schedule))
})
