// The CLI as a child process against a real Postgres, beside an in-process API on the same
// database: organizations and keys it creates authenticate at once; unknown organizations and
// streams fail with JSON errors; the event history hides secrets; bad arguments are usage errors.
import t from 'tap'
import { hashApiKey } from '../../domain/organization/apiKeys.js'
import { startTestApp } from '../harness/testApp.js'
import { jsonLines, runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const listEndpoints = (apiKey: string) => h.request({ method: 'GET', url: '/v1/webhooks/endpoints', apiKey })

type CreatedOrg = { organizationId: string; name: string; apiKey: string; keyId: string; environment: string }
type CreatedKey = Omit<CreatedOrg, 'name'> & { role: string }
type StreamedEvent = {
  id: string
  stream: string
  revision: string
  position: string
  type: string
  data: Record<string, unknown>
  metadata: Record<string, unknown>
  recordedAt: string
}

let org: CreatedOrg
let second: CreatedKey

t.test('orgs create, then keys create: both keys authenticate against the API at once', async (t) => {
  const created = await runCli(['orgs', 'create', '--name', '  Acme Audits  '], env)
  t.equal(created.code, 0, created.stderr)
  org = stdoutJson<CreatedOrg>(created)
  t.match(org, { name: 'Acme Audits', environment: 'sandbox' })
  t.match(org.organizationId, /^org_[0-9a-z]{26}$/)
  t.match(org.keyId, /^key_[0-9a-z]{26}$/)
  t.match(org.apiKey, /^sk_sandbox_[0-9A-Za-z]{32}$/)
  t.same(Object.keys(org).sort(), ['apiKey', 'environment', 'keyId', 'name', 'organizationId'])
  t.equal((await listEndpoints(org.apiKey)).statusCode, 200, 'the new key is accepted as soon as the CLI exits')

  const issued = await runCli(['keys', 'create', '--org', org.organizationId], env)
  t.equal(issued.code, 0, issued.stderr)
  second = stdoutJson<CreatedKey>(issued)
  t.same(Object.keys(second).sort(), ['apiKey', 'environment', 'keyId', 'organizationId', 'role'])
  t.equal(second.role, 'FULL', 'a full key unless --role says otherwise')
  t.equal(second.organizationId, org.organizationId)
  t.not(second.apiKey, org.apiKey)
  t.not(second.keyId, org.keyId)
  t.equal((await listEndpoints(second.apiKey)).statusCode, 200, 'the second key too')
  t.equal((await listEndpoints(org.apiKey)).statusCode, 200, 'the first key still works')

  const random = await listEndpoints(`sk_sandbox_${'x'.repeat(32)}`)
  t.equal(random.statusCode, 401, 'a key the CLI never issued is refused')
})

t.test('keys create --role auditor: a key that reads and never writes', async (t) => {
  const issued = await runCli(['keys', 'create', '--org', org.organizationId, '--role', 'auditor'], env)
  t.equal(issued.code, 0, issued.stderr)
  const auditor = stdoutJson<CreatedKey>(issued)
  t.equal(auditor.role, 'AUDITOR')
  t.equal((await listEndpoints(auditor.apiKey)).statusCode, 200, 'it reads')
  const write = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: 'https://example.com/x' },
    apiKey: auditor.apiKey,
  })
  t.equal(write.statusCode, 403)
  t.match(write.json(), { statusCode: 403, code: 'auditor_key_read_only' })
  const events = jsonLines<StreamedEvent>(await runCli(['events', 'stream', `organization-${org.organizationId}`], env))
  t.match(events.at(-1)!.data, { keyId: auditor.keyId, role: 'AUDITOR' }, 'the role is in the key event')
  t.notOk('role' in events[1]!.data, 'a full key event carries no role, as before roles existed')
})

t.test('keys create for an unknown organization: exit 1, a 404-style JSON error, nothing on stdout', async (t) => {
  const run = await runCli(['keys', 'create', '--org', 'org_00000000000000000000000000'], env)
  t.equal(run.code, 1)
  t.equal(run.stdout, '')
  t.match(stderrError(run), { error: 'resource_not_found', kind: 'not_found', statusCode: 404, message: /org_00000000000000000000000000/ })
})

t.test('events stream: the organization history with metadata, key hashes redacted', async (t) => {
  const run = await runCli(['events', 'stream', `organization-${org.organizationId}`], env)
  t.equal(run.code, 0, run.stderr)
  const events = jsonLines<StreamedEvent>(run)
  t.same(
    events.map((e) => e.type),
    ['OrganizationCreated', 'ApiKeyCreated', 'ApiKeyCreated', 'ApiKeyCreated'],
  )
  t.same(
    events.map((e) => e.revision),
    ['0', '1', '2', '3'],
    'revisions as strings, in order',
  )
  t.ok(
    events.every((e, i) => i === 0 || e.position > events[i - 1]!.position),
    'positions increase',
  )
  for (const e of events) {
    t.same(Object.keys(e).sort(), ['data', 'id', 'metadata', 'position', 'recordedAt', 'revision', 'stream', 'type'])
    t.equal(e.stream, `organization-${org.organizationId}`)
    t.match(e.id, /^[0-9a-f-]{36}$/)
    t.ok(!Number.isNaN(Date.parse(e.recordedAt)))
    t.match(e.metadata, { organizationId: org.organizationId, actor: /^cli:/, requestId: /^req_/ })
  }
  t.match(events[0]!.data, { organizationId: org.organizationId, name: 'Acme Audits' })
  t.match(events[1]!.data, { keyId: org.keyId, keyHash: '[redacted]', last4: org.apiKey.slice(-4) })
  t.match(events[2]!.data, { keyId: second.keyId, keyHash: '[redacted]' })
  t.notOk(run.stdout.includes(hashApiKey(org.apiKey)), 'no key hash anywhere in the output')
  t.notOk(run.stdout.includes(org.apiKey), 'and never a key')
})

t.test('events stream: webhook signing secrets are redacted, current and rotated', async (t) => {
  const created = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/audit' } })
  t.equal(created.statusCode, 201)
  const id = created.json().id as string
  const first = (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}/secret` })).json().secret as string
  const rotated = (await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${id}/secret/rotate` })).json().secret as string
  const run = await runCli(['events', 'stream', `webhook_endpoint-${id}`], env)
  t.equal(run.code, 0, run.stderr)
  const events = jsonLines<StreamedEvent>(run)
  t.same(
    events.map((e) => e.type),
    ['WebhookEndpointCreated', 'WebhookEndpointSecretRotated'],
  )
  t.match(events[0]!.data, { endpointId: id, url: 'https://example.com/audit', secret: '[redacted]' })
  t.match(events[1]!.data, { endpointId: id, secret: '[redacted]', previousSecretExpiresAt: String })
  t.notOk(run.stdout.includes(first) || run.stdout.includes(rotated) || run.stdout.includes('whsec_'), 'no signing secret in the output')
})

t.test('events stream of a stream that does not exist: exit 1, stream_not_found', async (t) => {
  const run = await runCli(['events', 'stream', 'organization-org_nothing_here'], env)
  t.equal(run.code, 1)
  t.equal(run.stdout, '')
  t.match(stderrError(run), { error: 'stream_not_found', message: /organization-org_nothing_here/ })
})

t.test('usage errors: exit 2, a JSON error, then the usage text; nothing on stdout', async (t) => {
  const cases: [string[], RegExp][] = [
    [[], /no command/],
    [['orgs', 'delete'], /unknown orgs command "delete"; one of: orgs create/],
    [['orgs', 'create', '--name', '   '], /--name is required, 1 to 200 characters/],
    [['keys', 'create', '--org', 'org_x', '--colour', 'red'], /Unknown option '--colour'/],
    [['keys', 'create', '--org', 'org_x', '--role', 'boss'], /--role must be full, auditor or operator/],
  ]
  // Usage errors never open the database, so these run side by side quickly.
  const [runs, unknown, help] = await Promise.all([
    Promise.all(cases.map(([args]) => runCli(args, env))),
    runCli(['projections', 'rebuild', 'ledgers'], env),
    runCli(['--help'], env),
  ])
  cases.forEach(([args, message], i) => {
    const run = runs[i]!
    const label = args.join(' ') || '(no arguments)'
    t.equal(run.code, 2, `${label}: exit 2`)
    t.equal(run.stdout, '', `${label}: stdout empty`)
    t.match(stderrError(run), { error: 'usage_error', message }, `${label}: JSON error`)
    t.match(run.stderr, /\nusage: npm run -s cli -- /, `${label}: usage text`)
  })

  t.equal(unknown.code, 2)
  t.match(stderrError(unknown), {
    error: 'usage_error',
    message: /unknown projection "ledgers"; valid names: organizations, webhook_endpoints/,
    validNames: ['organizations', 'webhook_endpoints'],
  })

  t.equal(help.code, 0, '--help is not an error')
  t.equal(help.stdout, '', 'help goes to stderr: stdout is for JSON only')
  t.match(help.stderr, /orgs create --name <name>[\s\S]*events stream <stream>/)
})

t.test('keys create --role operator: the operator routes, and no tenant route', async (t) => {
  const issued = await runCli(['keys', 'create', '--org', org.organizationId, '--role', 'operator'], env)
  t.equal(issued.code, 0, issued.stderr)
  const operator = stdoutJson<CreatedKey>(issued)
  t.equal(operator.role, 'OPERATOR')
  const consumers = await h.request({ method: 'GET', url: '/v1/operator/consumers', apiKey: operator.apiKey })
  t.equal(consumers.statusCode, 200, 'it reads the operator routes')
  const tenant = await listEndpoints(operator.apiKey)
  t.equal(tenant.statusCode, 403)
  t.match(tenant.json(), { code: 'operator_key_not_allowed' })
})
