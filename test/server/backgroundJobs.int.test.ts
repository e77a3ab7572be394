// The server's background jobs: one list (the scheduler, webhook retention, idempotency purge, the
// embedded cluster check), each run at once and then every interval after the last run ended, a
// failing run logged without stopping the loop, and stop() waiting for a run in flight after aborting it. Idempotency records
// are purged past IDEMPOTENCY_LIMITS.retentionMs, by the database's clock, and only those.
import { sql } from 'kysely'
import t from 'tap'
import { AUDIT_CHECKPOINT_LIMITS } from '../../events/integrity/checkpointSealer.js'
import { SCHEDULER_LIMITS } from '../../commands/scheduler/limits.js'
import { type BackgroundJob, backgroundJobs, startBackgroundJobs } from '../../server/backgroundJobs.js'
import { EMBEDDED_LIMITS } from '../../server/database/embeddedPostgres.js'
import { IDEMPOTENCY_LIMITS, purgeExpiredIdempotencyKeys } from '../../server/idempotency/idempotency.js'
import { WEBHOOK_LIMITS } from '../../webhooks/limits.js'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

t.test('one list, with the named intervals', async (t) => {
  t.same(
    backgroundJobs.map((j) => [j.name, j.intervalMs]),
    [
      ['scheduler', SCHEDULER_LIMITS.pollIntervalMs],
      ['webhook-retention', WEBHOOK_LIMITS.retentionIntervalMs],
      ['idempotency-purge', IDEMPOTENCY_LIMITS.purgeIntervalMs],
      ['audit-checkpoints', AUDIT_CHECKPOINT_LIMITS.checkIntervalMs],
      ['embedded-cluster', EMBEDDED_LIMITS.checkIntervalMs],
    ],
  )
})

t.test('runs at once, again after each interval, survives a failure, and stop waits for the run in flight', async (t) => {
  const errors: string[] = []
  let runs = 0
  let inFlight: AbortSignal | undefined
  let finished = false
  const job: BackgroundJob = {
    name: 'probe',
    intervalMs: 50,
    async run({ signal }) {
      runs++
      if (runs === 2) throw new Error('second run fails')
      if (runs === 4) {
        inFlight = signal
        await sleep(200)
        finished = true
      }
    },
  }
  const jobs = startBackgroundJobs(
    {
      db: h.runtime.db,
      schedulerDb: h.runtime.schedulerDb,
      commands: h.runtime.commands,
      auditSealing: h.runtime.auditSealing,
      log: { error: (_obj, msg) => errors.push(msg) },
    },
    [job],
  )
  t.equal(runs, 1, 'the first run starts at once')
  for (let i = 0; i < 100 && !inFlight; i++) await sleep(20)
  t.ok(inFlight, 'kept running after the failed run')
  t.same(errors, ['background job probe failed'])
  await jobs.stop()
  t.ok(inFlight?.aborted, 'the run in flight was told to stop')
  t.ok(finished, 'and stop() waited for it')
  const after = runs
  await sleep(150)
  t.equal(runs, after, 'no run after stop')
})

t.test('the idempotency purge deletes records past retention only', async (t) => {
  const create = { method: 'POST' as const, url: '/v1/customers/individuals', payload: { firstName: 'A', lastName: 'B' } }
  const res = async (key: string) => h.request({ ...create, headers: { 'idempotency-key': key } })
  t.equal((await res('purge-old')).statusCode, 201)
  t.equal((await res('purge-young')).statusCode, 201)
  const retentionSeconds = IDEMPOTENCY_LIMITS.retentionMs / 1000
  const age = (key: string, seconds: number) =>
    sql`UPDATE idempotency_keys SET created_at = now() - make_interval(secs => ${seconds}) WHERE key = ${key}`.execute(h.runtime.db)
  await age('purge-old', retentionSeconds + 60)
  await age('purge-young', retentionSeconds - 60)
  t.equal(await purgeExpiredIdempotencyKeys(h.runtime.db), 1, 'one purged')
  const keys = (await h.runtime.db.selectFrom('idempotency_keys').select('key').where('key', 'like', 'purge-%').execute()).map((r) => r.key)
  t.same(keys, ['purge-young'], 'the one inside retention stays')
})
