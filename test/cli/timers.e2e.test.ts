// `timers parked` and `timers retry` as child processes against a real Postgres: a timer the
// scheduler parked is listed with its failure and sent back with fresh attempts; unknown ids and
// bad arguments are refused with the CLI's error body.
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const db = h.runtime.schedulerDb
const quiet = { error: () => undefined }
type Parked = { parked: { id: string; stream: string; attempts: number; lastError: string | null; dueAt: string }[] }

t.test('a parked timer is listed and sent back with fresh attempts', async (t) => {
  const customer = await createIndividual(h)
  const { organizationId } = h.org
  const id = `cli-timer:${customer.id}`
  // A row naming no schedulable aggregate (as left by a version that had one): parked at once.
  const due = new Date(Date.now() - 1_000)
  await db
    .insertInto('scheduled_commands')
    .values({
      id,
      organization_id: organizationId,
      aggregate: 'retired_aggregate',
      stream: `customer-${customer.id}`,
      command: JSON.stringify({ type: 'Retired' }),
      due_at: due,
      next_attempt_at: due,
    })
    .execute()
  await runDueCommands({ db, commands: h.runtime.commands, log: quiet })
  const listed = await runCli(['timers', 'parked'], env)
  t.equal(listed.code, 0, listed.stderr)
  const row = stdoutJson<Parked>(listed).parked.find((p) => p.id === id)
  t.ok(row, 'the parked timer is listed')
  t.equal(row?.stream, `customer-${customer.id}`)
  t.ok((row?.attempts ?? 0) > 0, 'with its attempts')
  t.type(row?.lastError, 'string', 'and its last error')

  const retried = await runCli(['timers', 'retry', id], env)
  t.equal(retried.code, 0, retried.stderr)
  t.same(stdoutJson(retried), { id, status: 'PENDING', retried: true })
  const again = await runCli(['timers', 'parked'], env)
  t.notOk(
    stdoutJson<Parked>(again).parked.some((p) => p.id === id),
    'no longer parked',
  )
  const back = await db.selectFrom('scheduled_commands').select(['status', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow()
  t.same(back, { status: 'PENDING', attempts: 0 }, 'pending with fresh attempts')
})

t.test('refusals: an id that is not parked, and bad arguments', async (t) => {
  const missing = await runCli(['timers', 'retry', 'no-such-timer'], env)
  t.equal(missing.code, 1)
  t.match(stderrError(missing), { error: 'timer_not_parked', id: 'no-such-timer' })
  const noId = await runCli(['timers', 'retry'], env)
  t.equal(noId.code, 2)
  const badLimit = await runCli(['timers', 'parked', '--limit', '0'], env)
  t.equal(badLimit.code, 2)
  t.match(stderrError(badLimit).message, /--limit/)
})
