// A crash between any two steps of a balance-funded transfer loses and repeats nothing. The real
// server runs with one crash point armed (CRASH_AT, commands/runtime/crashPoints.ts) and kills
// itself there (SIGKILL); it is started again with the next point armed, and so on: hold placed →
// funded → a leg started → before the settle → settled → (no crash) completed. At the end the
// transfer is COMPLETED, one hold was placed and settled, the destination credited once, the
// balances exact, and `ledger verify` is consistent. (The crash point after a create's append,
// `transfer-created`, is the same story: the workflow funds it on restart.)
import t from 'tap'
import type { CrashPoint } from '../../commands/runtime/crashPoints.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { runCli } from '../cli/fixtures/runCli.js'
import { fetchClient } from '../harness/httpClient.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { type ServerProcess, startServer } from '../proofs/fixtures/serverProcess.js'
import { approvedCustomer, availableOf, eventually, fundIn, usdBalance } from './transferWorld.js'

const CRASH_WAIT_MS = 30_000
const databaseUrl = await createTestDatabase(t)
// Fast rails so the scheduler walks the legs in well under a second a step.
const env = { DATABASE_URL: databaseUrl, SANDBOX_RAIL_DELAYS_MS: 'BALANCE=100' }
// The first process is set up through, then dies at the first crash point (the hold).
let server: ServerProcess = await startServer({ ...env, CRASH_AT: 'transfer-hold-placed' })
t.teardown(() => {
  if (server.running()) server.kill('SIGKILL')
})
const apiKey = server.demoKey
if (!apiKey) throw new Error(`the first start printed no demo key: ${server.stdout()}`)
const store = await getPostgresEventStore({ connectionString: databaseUrl })
t.teardown(() => store.close())
let client = fetchClient(server.baseUrl, apiKey)

async function restart(crashAt: CrashPoint | undefined): Promise<void> {
  server = await startServer({ ...env, ...(crashAt ? { CRASH_AT: crashAt } : {}) })
  client = fetchClient(server.baseUrl, apiKey!)
}

async function diesAt(point: string): Promise<void> {
  const code = await server.exited(CRASH_WAIT_MS)
  if (code !== null) throw new Error(`the server exited with ${code} instead of dying at ${point}: ${server.stderr()}`)
}

t.test('a balance-funded transfer survives a crash at every step', async (t) => {
  const alice = await approvedCustomer(client)
  const bob = await approvedCustomer(client)
  const from = await usdBalance(client, alice)
  const to = await usdBalance(client, bob)
  await fundIn(client, from, '50.00')

  // The funding workflow holds the balance while the create waits for its read models: it dies there.
  const create = client
    .request({
      method: 'POST',
      url: '/v1/transfers',
      payload: { source: { accountId: from }, destination: { accountId: to }, sourceAmount: '1234', developerFeeFixed: '34' },
    })
    .catch((error: unknown) => error)
  await diesAt('transfer-hold-placed')
  t.ok((await create) instanceof Error, 'the create request died with the process')
  const transferStream = (await store.readAll({ maxCount: 10_000 })).find((e) => e.type === 'TransferCreated')?.stream
  t.ok(transferStream, 'the transfer was created before the crash')
  const transferId = transferStream!.slice('transfer-'.length)

  for (const point of ['transfer-funded', 'transfer-leg-started', 'transfer-settle-next', 'transfer-settled'] as const) {
    // The workflows resume at boot: the process may die before it even answers /health.
    const died = await restart(point).then(
      () => diesAt(point).then(() => true),
      (error: Error) => /exited \(SIGKILL\) while starting/.test(error.message),
    )
    t.ok(died, `died at ${point}`)
  }
  await restart(undefined)
  const done = await eventually(
    async () => (await client.request({ method: 'GET', url: `/v1/transfers/${transferId}` })).json(),
    (x) => x.status === 'COMPLETED',
    'completed after the last restart',
    30_000,
  )
  t.equal(done.status, 'COMPLETED')
  await eventually(
    () => availableOf(client, to),
    (v) => v === '1200',
    'the destination credited once: 12.34 less the 0.34 fee',
  )
  t.equal(await availableOf(client, from), String(5000 - 1234), 'the source paid once')

  const source = await store.readStream(`account-${from}`)
  t.equal(source.filter((e) => e.type === 'FundsHeld').length, 1, 'one hold')
  t.equal(source.filter((e) => e.type === 'HoldSettled').length, 1, 'settled once')
  const destination = await store.readStream(`account-${to}`)
  t.equal(destination.filter((e) => e.type === 'FundsCredited' && String(e.data.cause).startsWith('transfer:')).length, 1, 'credited once')
  const transfer = await store.readStream(transferStream!)
  t.equal(transfer.filter((e) => e.type === 'TransferFunded').length, 1, 'funded once')
  t.equal(transfer.filter((e) => e.type === 'TransferCompleted').length, 1, 'completed once')
  const legStarts = transfer.filter((e) => e.type === 'TransferLegStarted').map((e) => e.data.index)
  t.same(legStarts, [...new Set(legStarts)], 'each leg started once')

  server.kill('SIGTERM')
  await server.exited(CRASH_WAIT_MS)
  const verify = await runCli(['ledger', 'verify', '--json'], { DATABASE_URL: databaseUrl })
  t.equal(verify.code, 0, verify.stderr)
  t.match(JSON.parse(verify.stdout), { consistent: true })
})
