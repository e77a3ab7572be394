// Request limits through HTTP, with tiny limits: per API key (another key of the same tenant and
// another tenant go on unaffected), per IP address for public routes and for missing or failed
// authentication (a valid key from that address still works), 429 in the one error body with
// Retry-After and RateLimit-* headers, and /health never limited. Counts, not timings: every
// window is a minute, far longer than the test.
import t, { type Test } from 'tap'
import { createApiKey } from '../../commands/organizations/organizationCommands.js'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t, {
  RATE_LIMIT_PER_KEY: '3',
  RATE_LIMIT_PER_KEY_WINDOW_MS: '60000',
  RATE_LIMIT_PER_IP: '2',
  RATE_LIMIT_PER_IP_WINDOW_MS: '60000',
})

function assertRateLimited(t: Test, res: Awaited<ReturnType<typeof h.request>>, max: number, label: string) {
  t.equal(res.statusCode, 429, `${label}: 429`)
  const body = res.json()
  t.match(
    body,
    { error: 'RateLimitError', code: 'rate_limited', statusCode: 429, message: /Too many requests/ },
    `${label}: the one error body`,
  )
  t.same(Object.keys(body).sort(), ['code', 'error', 'message', 'requestId', 'statusCode'], `${label}: nothing else in the body`)
  t.equal(body.requestId, res.headers['x-request-id'], `${label}: requestId and X-Request-Id agree`)
  const retryAfter = Number(res.headers['retry-after'])
  t.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
    `${label}: Retry-After in seconds within the window (${res.headers['retry-after']})`,
  )
  t.equal(res.headers['ratelimit-limit'], String(max), `${label}: RateLimit-Limit`)
  t.equal(res.headers['ratelimit-remaining'], '0', `${label}: RateLimit-Remaining`)
  t.ok(Number(res.headers['ratelimit-reset']) >= 1, `${label}: RateLimit-Reset`)
  t.equal(res.headers['ratelimit-policy'], `${max};w=60`, `${label}: RateLimit-Policy`)
}

t.test('per API key: the 4th request in the window is refused, other keys and tenants are not', async (t) => {
  const list = (apiKey?: string) => h.request({ method: 'GET', url: '/v1/webhooks/endpoints', ...(apiKey ? { apiKey } : {}) })
  const remaining: string[] = []
  for (let i = 0; i < 3; i++) {
    const res = await list()
    t.equal(res.statusCode, 200, `request ${i + 1} passes`)
    t.equal(res.headers['ratelimit-limit'], '3')
    remaining.push(String(res.headers['ratelimit-remaining']))
  }
  t.same(remaining, ['2', '1', '0'], 'RateLimit-Remaining counts down')
  assertRateLimited(t, await list(), 3, 'a read over the limit')

  const created = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/hook' } })
  assertRateLimited(t, created, 3, 'a write over the limit')
  const invalid = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 42 } })
  t.equal(invalid.statusCode, 429, 'an invalid body is counted too (the limit comes before validation)')

  const sameTenant = await createApiKey(h.runtime.commands, { organizationId: h.org.organizationId, environment: 'sandbox', actor: 'test' })
  await h.runtime.runner.waitFor(sameTenant.position, 10_000)
  const other = await list(sameTenant.apiKey)
  t.equal(other.statusCode, 200, 'another key of the same organization is unaffected')
  t.equal(other.json().data.length, 0, 'and the refused write created nothing')
  t.equal(other.headers['ratelimit-remaining'], '2', 'it has a budget of its own')

  const tenantB = await h.newOrganization('Tenant B')
  const b = await list(tenantB.apiKey)
  t.equal(b.statusCode, 200, 'another organization is unaffected')
  t.equal(b.headers['ratelimit-remaining'], '2')
})

t.test('per IP address: public routes and failed authentication, a valid key from the same address still works', async (t) => {
  const from = (remoteAddress: string, options: { url?: string; apiKey?: string | null } = {}) =>
    h.request({ method: 'GET', url: options.url ?? '/v1/customers', remoteAddress, apiKey: options.apiKey ?? null })

  // Public route without a key.
  t.equal((await from('10.9.9.9', { url: '/api-json' })).statusCode, 200)
  t.equal((await from('10.9.9.9', { url: '/api-json' })).headers['ratelimit-remaining'], '0')
  assertRateLimited(t, await from('10.9.9.9', { url: '/api-json' }), 2, 'a public route over the per-IP limit')

  // Failed authentication: two 401s, then 429 for a wrong key and for no key at all.
  const wrongKey = 'sk_sandbox_' + 'x'.repeat(40)
  const first = await from('10.8.8.8', { apiKey: wrongKey })
  t.equal(first.statusCode, 401, 'a failed authentication is a 401 while under the limit')
  t.equal(first.headers['ratelimit-remaining'], '1', 'and is counted')
  t.equal((await from('10.8.8.8')).statusCode, 401, 'a missing key is counted the same way')
  assertRateLimited(t, await from('10.8.8.8', { apiKey: wrongKey }), 2, 'a failed authentication over the limit')
  assertRateLimited(t, await from('10.8.8.8'), 2, 'a missing key over the limit')

  const valid = await from('10.8.8.8', { url: '/v1/customers?limit=1', apiKey: (await h.newOrganization('Tenant C')).apiKey })
  t.equal(valid.statusCode, 200, 'a valid key from the same address is limited per key, not per address')
  t.equal((await from('10.8.8.8', { url: '/health' })).statusCode, 200, '/health is never limited')
  t.equal((await from('10.7.7.7', { apiKey: wrongKey })).statusCode, 401, 'another address has its own budget')
})

t.test('IPv6 clients are counted per /64, as @fastify/rate-limit normalizes them', async (t) => {
  t.equal((await h.request({ method: 'GET', url: '/api-json', remoteAddress: '2001:db8:1:2::1', apiKey: null })).statusCode, 200)
  t.equal((await h.request({ method: 'GET', url: '/api-json', remoteAddress: '2001:db8:1:2::99', apiKey: null })).statusCode, 200)
  t.equal(
    (await h.request({ method: 'GET', url: '/api-json', remoteAddress: '2001:db8:1:2:ffff::7', apiKey: null })).statusCode,
    429,
    'a third address of the same /64 is over the limit',
  )
  t.equal(
    (await h.request({ method: 'GET', url: '/api-json', remoteAddress: '2001:db8:1:3::1', apiKey: null })).statusCode,
    200,
    'another /64 is not',
  )
})
