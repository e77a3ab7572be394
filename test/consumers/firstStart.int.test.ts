// First start (issue 9, defects 1 and 5): it reads "first" from the event store, not from the
// projections, so it never waits on or fails with them; production creates no demo organization
// and prints no key; sandbox prints the demo key even when the projections cannot confirm it.
import { setTimeout } from 'node:timers/promises'
import t, { type Test } from 'tap'
import { loadConfig } from '../../server/config.js'
import { ensureDemoOrganization } from '../../server/firstStart.js'
import { openRuntime } from '../../server/runtime.js'
import { makeTestDatabase } from '../harness/testDatabase.js'
import { TEST_AUDIT_SIGNING_KEY, TEST_DATA_ENCRYPTION_KEY } from '../harness/testApp.js'
import type { Environment } from '../../domain/shared/environment.js'

async function runtimeFor(t: Test, appEnv: Environment) {
  const { url, drop } = await makeTestDatabase()
  const runtime = await openRuntime(
    // Async read models: the runner, not started, never confirms the key (inline, every write is confirmed at once).
    loadConfig({
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      APP_ENV: appEnv,
      DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
      AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
      PROJECTIONS: 'async',
    }),
    { info: () => undefined, error: () => undefined },
    { poolSize: 4 },
  )
  t.teardown(async () => {
    await runtime.close()
    await drop()
  })
  return runtime
}

t.test('production: no demo organization, no key printed', async (t) => {
  const runtime = await runtimeFor(t, 'production')
  await runtime.runner.start()
  const printed: string[] = []
  t.equal(await ensureDemoOrganization(runtime, (line) => printed.push(line)), 'production')
  t.same(await runtime.store.readAll(), [], 'nothing appended')
  t.notOk(
    printed.some((line) => /sk_(live|sandbox)_/.test(line)),
    'no key printed',
  )
  t.match(printed.join('\n'), /orgs create/, 'says how to create one')
})

t.test('sandbox: the demo key is printed even when the projections do not confirm it in time; once only', async (t) => {
  const runtime = await runtimeFor(t, 'sandbox')
  // No runner started: the projections never reach the key's event.
  const printed: string[] = []
  const started = Date.now()
  t.equal(await ensureDemoOrganization(runtime, (line) => printed.push(line), { keyWaitMs: 200 }), 'created')
  t.ok(Date.now() - started < 5_000, 'first start did not wait on the projections beyond its bound')
  t.ok(
    printed.some((line) => /^sk_sandbox_/.test(line)),
    'the key is printed',
  )
  t.match(printed.join('\n'), /authenticates once they do/, 'with a note')
  // $all is read gap-safe: a commit becomes visible once every older transaction of the cluster has
  // ended (other test files' databases share the cluster), so wait, bounded, for the first event.
  for (let i = 0; i < 200 && (await runtime.store.readAll({ maxCount: 1 })).length === 0; i++) await setTimeout(25)
  const again: string[] = []
  t.equal(await ensureDemoOrganization(runtime, (line) => again.push(line)), 'not_first_start', 'the next start is not a first start')
  t.same(again, [])
})
