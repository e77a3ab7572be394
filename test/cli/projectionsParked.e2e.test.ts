// `projections parked` and `projections parked replay` as an operator runs them, beside a running app
// on a real Postgres. A projector bug for one organization (a trigger refusing its row) parks that
// organization's stream for the organizations projector: the list shows the failed letter and the
// one behind it, `projections status` counts them, and a replay asks for a "yes" before it does
// anything, keeps a letter that still fails parked, and once the bug is gone applies the stream in
// order: the organization's API key then works. Each replay is audited. The operator's runs (the
// list, status, every replay that asks or exits non-zero) are real CLI processes.
import t from 'tap'
import { sql } from 'kysely'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import { PARKING } from '../../events/consumers/consumerGuard.js'
import { startTestApp } from '../harness/testApp.js'
import { eventually } from '../consumers/fixtures/poison.js'
import type { CliCommand } from '../../cli/command.js'
import { projectionsParked } from '../../cli/commands/projectionsParked.js'
import { projectionsParkedReplay } from '../../cli/commands/projectionsParkedReplay.js'
import { CliError, UsageError } from '../../cli/output.js'
import { runInProcess } from './fixtures/inProcessCli.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

type Letter = {
  group: string
  consumer: string
  stream: string
  eventId: string
  eventType: string
  position: string
  streamRevision: string
  organizationId: string | null
  reason: string
  error: string | null
  attempts: number
  parkedAt: string
}
type Replay = { consumer: string; stream: string; actor: string; outcome: string; replayedEventIds: string[]; failedEventId: string | null }
type Parked = {
  parked: Letter[]
  counts: { group: string; consumer: string; letters: number; streams: number; failed: number }[]
  replays: Replay[]
}
type Outcome = {
  consumer: string
  group: string
  stream: string
  replayed: string[]
  skipped: string[]
  remaining: number
  failed?: unknown
}

const POISONED_NAME = 'Poisoned Org'
// Parking belongs to the asynchronous runtime (inline, a projector that throws fails the command instead).
const h = await startTestApp(t, { PROJECTIONS: 'async' })
const env = { DATABASE_URL: h.runtime.databaseUrl, PROJECTIONS: 'async' }
const cli = (args: string[], input?: string) => runCli(args, env, input === undefined ? {} : { input })

/** A command run in this process (fixtures/inProcessCli.ts); what it threw is thrown here. */
async function inProcess<T>(command: CliCommand, argv: string[]): Promise<T> {
  const run = await runInProcess<T>(command, argv, h.runtime)
  if (run.error) throw run.error
  return run.document as T
}

const parked = (args: string[] = []) => inProcess<Parked>(projectionsParked, args)

function thrownBy(work: () => unknown): unknown {
  try {
    work()
    return undefined
  } catch (error) {
    return error
  }
}

// The bug: the organizations projector cannot write this one organization's row.
await sql
  .raw(
    `CREATE FUNCTION test_poisoned_org() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.name = '${POISONED_NAME}' THEN RAISE EXCEPTION 'poisoned organization'; END IF; RETURN NEW; END $$`,
  )
  .execute(h.runtime.db)
await sql
  .raw('CREATE TRIGGER test_poisoned_org BEFORE INSERT ON organizations FOR EACH ROW EXECUTE FUNCTION test_poisoned_org()')
  .execute(h.runtime.db)
const poisoned = await createOrganization(h.runtime.commands, { name: POISONED_NAME, environment: 'sandbox', actor: 'test' })
const stream = `organization-${poisoned.organizationId}`
await eventually(
  async () => ((await h.request({ method: 'GET', url: '/health', apiKey: null })).json().status === 'degraded' ? true : undefined),
  10_000,
  'the stream parked',
)

t.test('projections parked lists the failed letter and the one behind it; status counts them', async (t) => {
  const run = await cli(['projections', 'parked'])
  t.equal(run.code, 0, run.stderr)
  const list = stdoutJson<Parked>(run)
  t.match(list.parked, [
    {
      group: 'projections',
      consumer: 'organizations',
      stream,
      eventType: 'OrganizationCreated',
      position: /^\d{20}\/\d{20}$/,
      streamRevision: '0',
      organizationId: poisoned.organizationId,
      reason: 'failed',
      error: /^organizations: PostgreSQL P0001: poisoned organization/,
      attempts: PARKING.attempts,
      parkedAt: String,
    },
    { consumer: 'organizations', stream, eventType: 'ApiKeyCreated', streamRevision: '1', reason: 'behind', error: null, attempts: 0 },
  ])
  t.same(list.counts, [{ group: 'projections', consumer: 'organizations', letters: 2, streams: 1, failed: 1 }])
  t.same(list.replays, [])
  t.equal((await parked(['--consumer', 'projections'])).parked.length, 2, 'by group')
  t.equal((await parked(['--consumer', 'organizations'])).parked.length, 2, 'by consumer')
  t.same((await parked(['--consumer', 'webhook_messages'])).parked, [], 'another group has none')
  t.equal((await parked(['--limit', '1'])).parked.length, 1)
  t.ok(thrownBy(() => projectionsParked.parse(['--limit', '0'])) instanceof UsageError, 'a bad limit is a usage error')

  const status = await cli(['projections', 'status', '--json'])
  t.equal(status.code, 0, status.stderr)
  const body = stdoutJson<{ consumers: unknown[]; parked: unknown[] }>(status)
  t.match(body.consumers, [
    { name: 'projections', status: 'parked', parked: 2, parkedFailed: 1 },
    { name: 'webhook_messages', status: 'ok' },
  ])
  t.same(body.parked, list.counts)
  t.equal((await h.request({ method: 'GET', url: '/v1/customers', apiKey: poisoned.apiKey })).statusCode, 401, 'its key is not known yet')
})

t.test('replay: usage errors, and nothing happens without a yes', async (t) => {
  const [failed] = (await parked()).parked
  for (const args of [[], ['--all', failed!.eventId], ['--consumer', 'organizations'], ['not-a-uuid'], ['--all', '--actor', '']]) {
    t.ok(thrownBy(() => projectionsParkedReplay.parse(args)) instanceof UsageError, `usage error: ${args.join(' ')}`)
  }
  const unknown = await inProcess(projectionsParkedReplay, ['00000000-0000-4000-8000-000000000000', '--yes']).catch((e: unknown) => e)
  t.ok(unknown instanceof CliError && unknown.error === 'not_parked', 'an event id with no letter')

  for (const input of [undefined, 'no\n']) {
    const run = await cli(['projections', 'parked', 'replay', failed!.eventId], input)
    t.equal(run.code, 1, `answer ${JSON.stringify(input)}`)
    t.match(stderrError(run), { error: 'not_confirmed', plan: [{ group: 'projections', consumer: 'organizations', stream, letters: 2 }] })
    t.equal(run.stdout, '', 'nothing replayed')
  }
  const list = await parked()
  t.same(
    list.parked.map((l) => l.attempts),
    [PARKING.attempts, 0],
    'the letters untouched',
  )
  t.same(list.replays, [], 'no replay audited')
})

t.test('a confirmed replay while the bug is still there keeps the letters, one attempt more, and exits 1', async (t) => {
  const run = await cli(['projections', 'parked', 'replay', '--all', '--actor', 'alice'], 'yes\n')
  t.equal(run.code, 1, run.stderr)
  t.match(stderrError(run), { error: 'replay_incomplete', failed: [{ consumer: 'organizations', stream }] })
  t.match(stdoutJson<{ outcomes: Outcome[] }>(run).outcomes, [
    { consumer: 'organizations', stream, replayed: [], remaining: 2, failed: {} },
  ])
  const list = await parked()
  t.same(
    list.parked.map((l) => [l.reason, l.attempts]),
    [
      ['failed', PARKING.attempts + 1],
      ['behind', 0],
    ],
  )
  t.match(list.replays, [{ consumer: 'organizations', stream, actor: 'alice', outcome: 'failed', failedEventId: list.parked[0]!.eventId }])
})

t.test('once the bug is fixed, a confirmed replay applies the stream in order; the organization then works', async (t) => {
  await sql.raw('DROP TRIGGER test_poisoned_org ON organizations').execute(h.runtime.db)
  const letters = (await parked()).parked
  const run = await cli(['projections', 'parked', 'replay', letters[1]!.eventId], 'yes\n')
  t.equal(run.code, 0, run.stderr)
  t.match(stdoutJson<{ actor: string; outcomes: Outcome[] }>(run), {
    actor: /^cli:/,
    outcomes: [
      { group: 'projections', consumer: 'organizations', stream, replayed: letters.map((l) => l.eventId), skipped: [], remaining: 0 },
    ],
  })
  const list = await parked()
  t.same(list.parked, [], 'no letter left')
  t.match(list.replays[0], { consumer: 'organizations', outcome: 'replayed', replayedEventIds: letters.map((l) => l.eventId) })
  t.equal((await h.request({ method: 'GET', url: '/v1/customers', apiKey: poisoned.apiKey })).statusCode, 200, 'its key works')
  t.equal((await h.request({ method: 'GET', url: '/health', apiKey: null })).json().status, 'ok')
  const again = await inProcess<{ outcomes: unknown[] }>(projectionsParkedReplay, ['--all'])
  t.same(again.outcomes, [], 'nothing to replay: no question asked')
})
