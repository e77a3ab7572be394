// Authentication: Bearer and X-API-Key, the spec's 401 bodies, environments kept apart.
import t, { type Test } from 'tap'
import { createApiKey } from '../../commands/organizations/organizationCommands.js'
import { hashApiKey } from '../../domain/organization/apiKeys.js'
import { startTestApp } from '../harness/testApp.js'

const sandbox = await startTestApp(t)
const list = { method: 'GET' as const, url: '/v1/webhooks/endpoints' }

function assert401(t: Test, body: { error: string; message: string; statusCode: number }) {
  t.equal(body.error, 'Unauthorized')
  t.equal(body.statusCode, 401)
  t.type(body.message, 'string')
}

t.test('Bearer and X-API-Key both authenticate', async (t) => {
  t.match(sandbox.org.apiKey, /^sk_sandbox_[0-9A-Za-z]{32}$/)
  t.equal((await sandbox.request(list)).statusCode, 200)
  t.equal((await sandbox.request({ ...list, apiKey: null, headers: { 'x-api-key': sandbox.org.apiKey } })).statusCode, 200)
})

t.test('missing key: 401 in the spec shape', async (t) => {
  const res = await sandbox.request({ ...list, apiKey: null })
  t.equal(res.statusCode, 401)
  assert401(t, res.json())
  t.match(res.json().message, /Missing API key/)
})

t.test('invalid keys: 401', async (t) => {
  for (const key of ['sk_sandbox_' + 'x'.repeat(32), 'nonsense', 'sk_sandbox_agent_abc', 'sk_sandbox_' + 'a'.repeat(200)]) {
    const res = await sandbox.request({ ...list, apiKey: key })
    t.equal(res.statusCode, 401, key.slice(0, 24))
    assert401(t, res.json())
  }
  const notBearer = await sandbox.request({ ...list, apiKey: null, headers: { authorization: `Basic ${sandbox.org.apiKey}` } })
  t.equal(notBearer.statusCode, 401)
})

t.test('keys are stored only as hashes', async (t) => {
  const rows = await sandbox.runtime.db.selectFrom('api_keys').selectAll().where('id', '=', sandbox.org.keyId).execute()
  t.equal(rows.length, 1)
  t.equal(rows[0]!.key_hash, hashApiKey(sandbox.org.apiKey))
  t.notOk(JSON.stringify(rows).includes(sandbox.org.apiKey), 'no plaintext key in the read model')
  const events = await sandbox.runtime.store.readStream(`organization-${sandbox.org.organizationId}`)
  t.notOk(JSON.stringify(events.map((e) => e.data)).includes(sandbox.org.apiKey), 'no plaintext key in the events')
})

t.test('a live key is refused by a sandbox deployment', async (t) => {
  const live = await createApiKey(sandbox.runtime.commands, {
    organizationId: sandbox.org.organizationId,
    environment: 'production',
    actor: 'test',
  })
  await sandbox.runtime.runner.waitFor(live.position, 5000)
  t.match(live.apiKey, /^sk_live_/)
  const res = await sandbox.request({ ...list, apiKey: live.apiKey })
  t.equal(res.statusCode, 401)
  assert401(t, res.json())
})

t.test('a sandbox key is refused by a production deployment', async (t) => {
  const production = await startTestApp(t, { APP_ENV: 'production' })
  t.match(production.org.apiKey, /^sk_live_/)
  t.equal((await production.request(list)).statusCode, 200, 'live key works in production')
  const sandboxKey = await createApiKey(production.runtime.commands, {
    organizationId: production.org.organizationId,
    environment: 'sandbox',
    actor: 'test',
  })
  await production.runtime.runner.waitFor(sandboxKey.position, 5000)
  const res = await production.request({ ...list, apiKey: sandboxKey.apiKey })
  t.equal(res.statusCode, 401)
  assert401(t, res.json())
  const http = await production.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'http://example.com/hook' } })
  t.equal(http.statusCode, 422, 'production requires https webhook URLs')
  t.equal(http.json().error, 'ValidationError')
  t.equal(http.json().details[0].field, 'body.url')
})

// Issue 24, D10: credentials that disagree are refused, whichever one is valid; the same key in
// both headers is one credential, and an empty header carries none.
t.test('conflicting credentials: 401', async (t) => {
  const other = await sandbox.newOrganization('Other organization')
  const key = sandbox.org.apiKey
  const conflicts: [string, Record<string, string | string[]>][] = [
    ['Bearer A, X-API-Key B', { authorization: `Bearer ${key}`, 'x-api-key': other.apiKey }],
    ['Bearer A, X-API-Key garbage', { authorization: `Bearer ${key}`, 'x-api-key': 'garbage' }],
    ['Bearer garbage, X-API-Key A', { authorization: 'Bearer garbage', 'x-api-key': key }],
    ['Bearer A, Bearer B', { authorization: [`Bearer ${key}`, `Bearer ${other.apiKey}`] }],
    ['X-API-Key A, X-API-Key B', { 'x-api-key': [key, other.apiKey] }],
  ]
  for (const [name, headers] of conflicts) {
    const res = await sandbox.request({ ...list, apiKey: null, headers })
    t.equal(res.statusCode, 401, name)
    assert401(t, res.json())
  }
  const write = await sandbox.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    apiKey: null,
    headers: { authorization: `Bearer ${other.apiKey}`, 'x-api-key': key },
    payload: { url: 'https://example.com/conflict' },
  })
  t.equal(write.statusCode, 401, 'a write with conflicting keys is refused')
  const endpoints = await sandbox.runtime.db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('url', '=', 'https://example.com/conflict')
    .execute()
  t.same(endpoints, [], 'nothing stored')
  const same = await sandbox.request({ ...list, apiKey: null, headers: { authorization: `Bearer ${key}`, 'x-api-key': key } })
  t.equal(same.statusCode, 200, 'the same key in both headers is served')
  const twice: Record<string, string[]> = { authorization: [`Bearer ${key}`, `Bearer ${key}`] }
  const repeated = await sandbox.request({ ...list, apiKey: null, headers: twice })
  t.equal(repeated.statusCode, 200, 'the same key twice is served')
  const empty = await sandbox.request({ ...list, apiKey: null, headers: { authorization: `Bearer ${key}`, 'x-api-key': '' } })
  t.equal(empty.statusCode, 200, 'an empty X-API-Key carries no credential')
})
