// A SIGTERM stops the real server (`node server/main.ts`, prebuilt: the signal reaches it and not a
// tsx wrapper) while both consumers are in a back-off on an event: it exits cleanly, before the
// back-off would have ended. The failure is a transient one (the database answers "could not
// serialize", SQLSTATE 40001, on the rows both groups write for it), which a consumer retries with
// a growing back-off for as long as it lasts; a poison event would be parked after a few attempts.
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import t from 'tap'
import pg from 'pg'
import { newId } from '../../domain/shared/ids.js'
import { REPO_ROOT, childEnv, freePort } from '../cli/fixtures/runCli.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { nodeArgsFor } from '../harness/prebuilt.js'
import { eventually, insertRawEvent } from './fixtures/poison.js'

/** A back-off at least this long ahead when the signal is sent, so "before it ended" means something. */
const MIN_BACKOFF_AHEAD_MS = 2_500

const databaseUrl = await createTestDatabase(t)
const port = await freePort()
let stderr = ''
const server: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, nodeArgsFor('server/main.ts'), {
  cwd: REPO_ROOT,
  env: childEnv({ DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'error', PROJECTIONS: 'async' }),
  stdio: ['ignore', 'pipe', 'pipe'],
})
server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
let stdout = ''
server.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
const exit = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
t.teardown(async () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
  await exit
})

t.test('SIGTERM while both consumers back off', async (t) => {
  const health = async () => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`)
      return (await res.json()) as { status: string; consumers: { status: string }[] }
    } catch {
      return undefined
    }
  }
  await eventually(health, 45_000, `the server to listen (${stderr})`)
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  await db.query(`CREATE FUNCTION test_contended() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'could not serialize access' USING ERRCODE = '40001'; END $$`)
  for (const table of ['webhook_endpoints', 'webhook_delivery_endpoints']) {
    await db.query(`CREATE TRIGGER test_contended BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_contended()`)
  }
  const endpointId = newId('ep')
  await insertRawEvent(databaseUrl, {
    stream: `webhook_endpoint-${endpointId}`,
    type: 'WebhookEndpointCreated',
    data: {
      endpointId,
      organizationId: newId('org'),
      url: 'https://example.com',
      description: 'x',
      filterTypes: [],
      metadata: {},
      secret: `whsec_${'a'.repeat(32)}`,
      createdAt: new Date().toISOString(),
    },
  })
  await eventually(async () => ((await health())?.status === 'degraded' ? true : undefined), 10_000, 'degraded health')

  // Both consumers sleeping, with their next attempts far enough ahead.
  const nextAttempt = await eventually(
    async () => {
      const { rows } = await db.query<{ next: Date }>('SELECT min(next_attempt_at) AS next FROM consumer_failures HAVING count(*) = 2')
      const next = rows[0]?.next
      return next && next.getTime() - Date.now() > MIN_BACKOFF_AHEAD_MS ? next : undefined
    },
    20_000,
    'a long back-off on both consumers',
  )
  await db.end()

  server.kill('SIGTERM')
  const code = await exit
  const exitedAt = Date.now()
  t.equal(code, 0, `clean exit: ${stderr.slice(-2_000)}`)
  t.ok(exitedAt < nextAttempt.getTime(), `exited ${nextAttempt.getTime() - exitedAt} ms before the back-off would have ended`)
  const failureLines = `${stdout}\n${stderr}`.split('\n').filter((line) => line.includes('consumer failed on an event; backing off'))
  t.ok(failureLines.length >= 2 && failureLines.length <= 20, `${failureLines.length} failure lines in the server log, not a loop`)
  t.notOk(`${stdout}${stderr}`.includes('"stack"'), 'no stack traces')
  t.notOk(`${stdout}${stderr}`.includes('consumer parked a stream'), 'a transient failure is never parked')
})
