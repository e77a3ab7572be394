// `projections rebuild` and `projections rollback` as an operator runs them: progress lines on stderr,
// the result in plain lines (or JSON with --json), a rollback refused with nothing kept (exit 1), and a
// rebuild refused while another holds the projection (exit 3) until that one's session ends, as when its
// process is killed.
import t from 'tap'
import pg from 'pg'
import { startTestApp } from '../harness/testApp.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const created = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/a' } })
t.equal(created.statusCode, 201)

t.test('nothing to roll back to: exit 1, stated', async (t) => {
  const run = await runCli(['projections', 'rollback', 'webhook_endpoints'], env)
  t.equal(run.code, 1)
  t.match(stderrError(run), { error: 'no_previous_version', projection: 'webhook_endpoints', message: /nothing to roll back to/ })
  const usage = await runCli(['projections', 'rollback'], env)
  t.equal(usage.code, 2, 'a name is required')
})

t.test('rebuild: progress on stderr, the result in words; rollback --json: one document', async (t) => {
  const rebuild = await runCli(['projections', 'rebuild', 'webhook_endpoints'], env)
  t.equal(rebuild.code, 0, rebuild.stderr)
  t.match(rebuild.stdout, /^webhook_endpoints rebuilt: \d+ events in [\d.]+ s \([\d,]+ events\/s\), at \d{20}\/\d{20}\n/)
  t.match(rebuild.stdout, /kept in previous_webhook_endpoints .*`projections rollback webhook_endpoints`/)
  t.match(rebuild.stderr, /^rebuild webhook_endpoints: build, \d+ of ~\d+ events \(\d+%\), [\d,]+ events\/s/m)
  t.match(rebuild.stderr, /^rebuild webhook_endpoints: \d+ events read; switching/m)

  const rollback = await runCli(['projections', 'rollback', 'webhook_endpoints', '--json'], env)
  t.equal(rollback.code, 0, rollback.stderr)
  t.match(stdoutJson(rollback), {
    projection: 'webhook_endpoints',
    restored: { keptAt: String, keptPosition: /^\d{20}\/\d{20}$/ },
    position: /^\d{20}\/\d{20}$/,
    previous: { schema: 'previous_webhook_endpoints', deadLetters: 0 },
  })
  t.match(JSON.parse(rollback.stderr.split('\n')[0]!), { progress: { operation: 'rollback', projection: 'webhook_endpoints' } })
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${created.json().id}` })).statusCode, 200)
})

t.test('a second operation on the projection is refused (exit 3) until the first session ends', async (t) => {
  // The lock a running rebuild holds, taken here on a session of its own.
  const other = new pg.Client({ connectionString: h.runtime.databaseUrl })
  await other.connect()
  await other.query("SELECT pg_advisory_lock(7171030, hashtext('webhook_endpoints'))")
  const refused = await runCli(['projections', 'rebuild', 'webhook_endpoints'], env)
  t.equal(refused.code, 3)
  t.match(stderrError(refused), { error: 'projection_busy', projection: 'webhook_endpoints', message: /already running/ })
  t.equal((await runCli(['projections', 'rollback', 'webhook_endpoints'], env)).code, 3, 'a rollback too')
  // Its session ends without unlocking, as a killed process's does: the lock goes with it.
  await other.end()
  t.equal((await runCli(['projections', 'rebuild', 'webhook_endpoints'], env)).code, 0)
})
