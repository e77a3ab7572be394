// The console session (issue 30, point 4): sign in with an API key for an httpOnly, SameSite=Strict
// cookie whose token only the browser holds; a cookie request to /v1 answers exactly as the key
// does, within the key's organization; writes by cookie need this origin; sign-out, a revoked key,
// the idle and the absolute expiry each end the session; sign-in is rate-limited per address.
import { createHash } from 'node:crypto'
import t from 'tap'
import { createApiKey } from '../../commands/organizations/organizationCommands.js'
import { organizationDecider } from '../../domain/organization/decider.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import { CONSOLE_SESSION_LIMITS } from '../../server/console/sessionLimits.js'
import { type TestApp, startTestApp } from '../harness/testApp.js'
import { eventLogOf } from '../proofs/fixtures/eventLog.js'
import { SAME_ORIGIN, byCookie, sessionCookieOf, signIn, tokenFor } from './consoleSession.js'

const newCustomer = async (h: TestApp, apiKey: string) => {
  const reply = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    apiKey,
    payload: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', countryCode: 'US' },
  })
  if (reply.statusCode !== 201) throw new Error(`customer: ${reply.statusCode} ${reply.body}`)
  return (JSON.parse(reply.body) as { id: string }).id
}

const sessionRows = (h: TestApp) => h.runtime.db.selectFrom('console_sessions').selectAll().execute()

t.test('sign in, who am I, sign out', async (t) => {
  const h = await startTestApp(t)
  const reply = await signIn(h, h.org.apiKey)
  t.equal(reply.statusCode, 201, reply.body)
  t.equal(reply.headers['cache-control'], 'no-store')
  const body = JSON.parse(reply.body) as Record<string, string>
  t.match(body, {
    organizationId: h.org.organizationId,
    organizationName: 'Test organization',
    environment: 'sandbox',
    role: 'FULL',
    keyId: h.org.keyId,
    keyHint: `sk_sandbox_…${h.org.apiKey.slice(-4)}`,
  })
  const created = Date.parse(body.createdAt!)
  t.equal(Date.parse(body.expiresAt!) - created, CONSOLE_SESSION_LIMITS.absoluteMs, 'absolute expiry: 12 hours')
  t.equal(Date.parse(body.idleExpiresAt!) - created, CONSOLE_SESSION_LIMITS.idleMs, 'idle expiry: 30 minutes')
  t.notOk(reply.body.includes(h.org.apiKey), 'the key is not echoed')

  const cookie = sessionCookieOf(reply)!
  t.match(cookie.value, /^cs_[A-Za-z0-9_-]{43}$/, 'an opaque random token')
  t.notOk(reply.body.includes(cookie.value), 'the token is only in the cookie')
  t.ok(cookie.attributes.includes('httponly'), 'HttpOnly')
  t.ok(cookie.attributes.includes('samesite=strict'), 'SameSite=Strict')
  t.ok(cookie.attributes.includes('path=/'), 'Path=/')
  t.ok(cookie.attributes.includes(`max-age=${CONSOLE_SESSION_LIMITS.absoluteMs / 1_000}`), 'lives no longer than the session')
  t.notOk(cookie.attributes.includes('secure'), 'not Secure in sandbox (plain http on a laptop)')
  t.notOk(
    cookie.attributes.some((a) => a.startsWith('domain=')),
    'no Domain',
  )

  const rows = await sessionRows(h)
  t.equal(rows.length, 1)
  t.equal(rows[0]!.token_hash, createHash('sha256').update(cookie.value).digest('hex'), 'only the hash is stored')
  t.match(rows[0], { key_id: h.org.keyId, organization_id: h.org.organizationId, environment: 'sandbox' })

  const who = await byCookie(h, cookie.value, { method: 'GET', url: '/console/session' })
  t.equal(who.statusCode, 200)
  t.same(JSON.parse(who.body), body, 'GET says the same')
  const nobody = await h.request({ method: 'GET', url: '/console/session', apiKey: null })
  t.equal(nobody.statusCode, 401)
  t.match(JSON.parse(nobody.body), { code: 'console_session_missing' })

  const refused = await byCookie(h, cookie.value, { method: 'DELETE', url: '/console/session', headers: {} })
  t.equal(refused.statusCode, 403, 'sign-out by cookie is a write: it needs the origin')
  t.match(JSON.parse(refused.body), { code: 'csrf_origin_missing' })

  const out = await byCookie(h, cookie.value, { method: 'DELETE', url: '/console/session' })
  t.equal(out.statusCode, 200)
  t.same(JSON.parse(out.body), { signedOut: true })
  const cleared = sessionCookieOf(out)!
  t.equal(cleared.value, '', 'the cookie is cleared')
  t.ok(
    cleared.attributes.some((a) => a.startsWith('expires=thu, 01 jan 1970')),
    'expired',
  )
  t.same(await sessionRows(h), [], 'the row is gone')
  const after = await byCookie(h, cookie.value, { method: 'GET', url: '/v1/customers' })
  t.equal(after.statusCode, 401)
  t.match(JSON.parse(after.body), { code: 'console_session_invalid' })
  t.equal(sessionCookieOf(after)?.value, '', 'a dead session’s cookie is cleared')
  const again = await byCookie(h, cookie.value, { method: 'DELETE', url: '/console/session' })
  t.equal(again.statusCode, 200, 'signing out twice is no error')
})

t.test('sign-in refusals', async (t) => {
  const h = await startTestApp(t)
  const unknown = await signIn(h, `sk_sandbox_${'x'.repeat(32)}`)
  t.equal(unknown.statusCode, 401)
  t.equal(sessionCookieOf(unknown), undefined, 'no cookie')
  const production = await signIn(h, `sk_live_${'y'.repeat(32)}`)
  t.equal(production.statusCode, 401)
  t.match(JSON.parse(production.body), { message: /production key cannot be used in the sandbox/ })
  const garbage = await signIn(h, 'hello')
  t.equal(garbage.statusCode, 401)
  const empty = await h.request({ method: 'POST', url: '/console/session', payload: {}, apiKey: null })
  t.equal(empty.statusCode, 400)
  const agent = await signIn(h, `sk_sandbox_agent_${'z'.repeat(32)}`)
  t.equal(agent.statusCode, 403)
  t.match(JSON.parse(agent.body), { code: 'agent_key_not_allowed' })
  const crossSite = await signIn(h, h.org.apiKey, { origin: 'https://evil.example' })
  t.equal(crossSite.statusCode, 403, 'another site’s page cannot sign a browser in')
  t.match(JSON.parse(crossSite.body), { code: 'csrf_origin_mismatch' })
  const crossFetch = await signIn(h, h.org.apiKey, { 'sec-fetch-site': 'cross-site' })
  t.equal(crossFetch.statusCode, 403)
  t.same(await sessionRows(h), [], 'no session opened')
  t.equal((await signIn(h, h.org.apiKey, SAME_ORIGIN)).statusCode, 201, 'from this origin')
  t.equal((await signIn(h, h.org.apiKey)).statusCode, 201, 'without browser headers (curl, the SDK)')
})

t.test('a cookie request answers as its key, within its organization', async (t) => {
  const h = await startTestApp(t)
  const other = await h.newOrganization('Other organization')
  const mine = await newCustomer(h, h.org.apiKey)
  const theirs = await newCustomer(h, other.apiKey)
  const token = await tokenFor(h, h.org.apiKey)

  for (const url of ['/v1/customers', `/v1/customers/${mine}`, '/v1/webhooks/endpoints']) {
    const byKey = await h.request({ method: 'GET', url })
    const bySession = await byCookie(h, token, { method: 'GET', url })
    t.equal(bySession.statusCode, byKey.statusCode, `${url}: same status`)
    t.same(JSON.parse(bySession.body), JSON.parse(byKey.body), `${url}: same body`)
  }
  const foreign = await byCookie(h, token, { method: 'GET', url: `/v1/customers/${theirs}` })
  t.equal(foreign.statusCode, 404, 'another organization’s customer is not there')
  const list = await byCookie(h, token, { method: 'GET', url: '/v1/customers' })
  t.notOk(list.body.includes(theirs), 'nor in the list')
  const onBehalf = await byCookie(h, token, { method: 'GET', url: '/v1/customers', headers: { 'x-on-behalf-of': theirs } })
  t.equal(onBehalf.statusCode, 404, 'nor through X-On-Behalf-Of')

  const headerWins = await h.request({
    method: 'GET',
    url: `/v1/customers/${theirs}`,
    apiKey: other.apiKey,
    headers: { cookie: `console_session=${token}` },
  })
  t.equal(headerWins.statusCode, 200, 'an API key header is used before the cookie')
  const badCookie = await h.request({ method: 'GET', url: '/v1/customers', apiKey: null, headers: { cookie: 'console_session=cs_forged' } })
  t.equal(badCookie.statusCode, 401, 'a forged cookie is no session')
})

t.test('writes by cookie: this origin only', async (t) => {
  const h = await startTestApp(t)
  const token = await tokenFor(h, h.org.apiKey)
  const payload = { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', countryCode: 'US' }
  const write = (headers: Record<string, string>) =>
    byCookie(h, token, { method: 'POST', url: '/v1/customers/individuals', payload, headers: { 'x-request-id': 'csrf-probe', ...headers } })

  const cases: [string, Record<string, string>, string][] = [
    ['no Origin, no Sec-Fetch-Site', {}, 'csrf_origin_missing'],
    ['another origin', { origin: 'https://evil.example' }, 'csrf_origin_mismatch'],
    ['another port', { origin: 'http://localhost:8080' }, 'csrf_origin_mismatch'],
    ['Origin null', { origin: 'null' }, 'csrf_origin_mismatch'],
    ['cross-site fetch', { 'sec-fetch-site': 'cross-site' }, 'csrf_origin_mismatch'],
    ['same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }, 'csrf_origin_mismatch'],
    ['a matching Origin with a cross-site fetch', { origin: 'http://localhost', 'sec-fetch-site': 'cross-site' }, 'csrf_origin_mismatch'],
  ]
  for (const [what, headers, code] of cases) {
    const reply = await write(headers)
    t.equal(reply.statusCode, 403, `${what}: 403`)
    t.match(JSON.parse(reply.body), { code, statusCode: 403 }, `${what}: ${code}`)
  }
  t.equal(await eventLogOf(h.runtime.pool).appendedBy(['csrf-probe']), 0, 'nothing appended')

  t.equal((await write({ origin: 'http://localhost' })).statusCode, 201, 'Origin of this host')
  t.equal((await write({ 'sec-fetch-site': 'same-origin' })).statusCode, 201, 'Sec-Fetch-Site: same-origin')
  const read = await byCookie(h, token, { method: 'GET', url: '/v1/customers', headers: { 'sec-fetch-site': 'cross-site' } })
  t.equal(read.statusCode, 200, 'reads need no origin (SameSite=Strict keeps the cookie off other sites’ requests)')
  const byKey = await h.request({ method: 'POST', url: '/v1/customers/individuals', payload, headers: { origin: 'https://evil.example' } })
  t.equal(byKey.statusCode, 201, 'a key-authenticated request is no CSRF: its origin is not checked')
})

t.test('a revoked key signs its sessions out', async (t) => {
  const h = await startTestApp(t)
  const key = await createApiKey(h.runtime.commands, {
    organizationId: h.org.organizationId,
    environment: 'sandbox',
    actor: 'test',
  })
  h.secrets.add('API key', key.apiKey)
  await h.runtime.runner.waitFor(key.position, 10_000)
  const token = await tokenFor(h, key.apiKey)
  t.equal((await byCookie(h, token, { method: 'GET', url: '/v1/customers' })).statusCode, 200)

  const revoked = await h.runtime.commands.handle(
    organizationDecider,
    streams.organization(h.org.organizationId),
    { type: 'RevokeApiKey', organizationId: h.org.organizationId, keyId: key.keyId, now: new Date().toISOString() },
    { organizationId: h.org.organizationId, requestId: newId('req'), actor: 'test' },
  )
  await h.runtime.runner.waitFor(revoked.position, 10_000)
  const after = await byCookie(h, token, { method: 'GET', url: '/v1/customers' })
  t.equal(after.statusCode, 401, 'at once: no cache outlives the key')
  t.match(JSON.parse(after.body), { code: 'console_session_invalid' })
  t.same(await sessionRows(h), [], 'its row is gone')
  t.equal((await signIn(h, key.apiKey)).statusCode, 401, 'and it signs in no more')
})

t.test('idle and absolute expiry', async (t) => {
  let now = Date.parse('2026-11-29T08:00:00Z')
  const h = await startTestApp(t, {}, { clock: () => new Date(now) })
  const minutes = (n: number) => n * 60_000

  const idle = await tokenFor(h, h.org.apiKey)
  now += minutes(29)
  t.equal((await byCookie(h, idle, { method: 'GET', url: '/console/session' })).statusCode, 200, 'used within 30 minutes')
  now += minutes(29)
  const who = await byCookie(h, idle, { method: 'GET', url: '/v1/customers' })
  t.equal(who.statusCode, 200, 'each request moves the idle expiry')
  now += minutes(31)
  const dead = await byCookie(h, idle, { method: 'GET', url: '/v1/customers' })
  t.equal(dead.statusCode, 401, 'idle for 31 minutes: ended')
  t.match(JSON.parse(dead.body), { code: 'console_session_invalid' })

  const busy = await tokenFor(h, h.org.apiKey)
  for (let hour = 0; hour < 12; hour++) {
    for (let step = 0; step < 3; step++) {
      now += minutes(20)
      const reply = await byCookie(h, busy, { method: 'GET', url: '/console/session' })
      const expected = hour * 60 + (step + 1) * 20 < 12 * 60 ? 200 : 401
      if (reply.statusCode !== expected) t.fail(`after ${hour} h ${(step + 1) * 20} min: ${reply.statusCode}`)
    }
  }
  const ended = await byCookie(h, busy, { method: 'GET', url: '/console/session' })
  t.equal(ended.statusCode, 401, 'however busy, 12 hours after sign-in it has ended')
  t.same(await sessionRows(h), [], 'expired rows are deleted when met')
})

t.test('sign-in is rate-limited per address', async (t) => {
  const h = await startTestApp(t, { CONSOLE_SIGN_IN_PER_IP: '3' })
  const statuses: number[] = []
  for (let i = 0; i < 3; i++) statuses.push((await signIn(h, `sk_sandbox_${String(i).repeat(32)}`)).statusCode)
  t.same(statuses, [401, 401, 401])
  const limited = await signIn(h, h.org.apiKey)
  t.equal(limited.statusCode, 429, 'the fourth attempt in a minute, even with a good key')
  t.match(JSON.parse(limited.body), { code: 'rate_limited' })
  t.equal(sessionCookieOf(limited), undefined)
})

t.test('production: a Secure __Host- cookie', async (t) => {
  const h = await startTestApp(t, { APP_ENV: 'production' })
  const reply = await signIn(h, h.org.apiKey)
  t.equal(reply.statusCode, 201, reply.body)
  t.equal(sessionCookieOf(reply), undefined, 'not the sandbox name')
  const cookie = sessionCookieOf(reply, '__Host-console_session')!
  h.secrets.add('console session token', cookie.value)
  t.ok(cookie.attributes.includes('secure'), 'Secure')
  t.ok(cookie.attributes.includes('httponly') && cookie.attributes.includes('samesite=strict') && cookie.attributes.includes('path=/'))
  const who = await h.request({
    method: 'GET',
    url: '/v1/customers',
    apiKey: null,
    headers: { cookie: `__Host-console_session=${cookie.value}` },
  })
  t.equal(who.statusCode, 200, 'the production cookie authenticates')
  const sandboxName = await h.request({
    method: 'GET',
    url: '/v1/customers',
    apiKey: null,
    headers: { cookie: `console_session=${cookie.value}` },
  })
  t.equal(sandboxName.statusCode, 401, 'under its own name only')
  const page = await h.request({ method: 'GET', url: '/console/', apiKey: null })
  t.match(page.headers['strict-transport-security'], /max-age=\d+/, 'HSTS in production')
})
