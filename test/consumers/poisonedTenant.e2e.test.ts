// Issue 24, point 3, the issue's own test: one tenant's poisoned streams park, and stop no one else.
// Two organizations through HTTP against real Postgres. Organization A's data then meets a bug in
// each consumer group, for A's rows only (triggers the way a bug would fail: a projector cannot write
// A's balance, the webhook subscriber cannot store A's messages, a workflow cannot append the credit
// of A's transfer). Each group parks A's streams for the consumer that failed and goes on: B's
// transfer completes, B's webhooks reach a real receiver, B's reads are fresh, and /health shows the
// parked counts. Once the bugs are gone, the operator replays (`projections parked replay`), and A's
// streams catch up in order: balances whose history adds up entry by entry, webhook messages in each
// stream's order, A's transfer completed and credited.
import t from 'tap'
import { MERKLE_SEALER } from '../../events/integrity/merkleSealer.js'
import { sql } from 'kysely'
import { listDeadLetters } from '../../events/consumers/deadLetters.js'
import { runCli, stdoutJson } from '../cli/fixtures/runCli.js'
import type { Client } from '../harness/httpClient.js'
import { startTestApp } from '../harness/testApp.js'
import {
  advanceUntil,
  approvedCustomer,
  availableOf,
  created,
  eventually,
  fundIn,
  getTransfer,
  usdBalance,
} from '../transfers/transferWorld.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver } from '../webhooks/deliveryReceiver.js'

type Health = { status: string; consumers: { name: string; status: string; parked?: number; parkedStreams?: number }[] }
type Outcome = { group: string; consumer: string; stream: string; replayed: string[]; remaining: number; failed?: unknown }

// Rails steps wait for the test's `advance`, so every step of a transfer is the test's own.
const h = await startTestApp(
  t,
  // Read models kept asynchronously, as on EventStoreDB: the projections are a consumer group here too
  // (inline, a projector's bug fails the command that meets it: test/projections/inlineFailure.e2e.test.ts).
  { WEBHOOK_RETRY_SCHEDULE_MS: '0,20', SANDBOX_RAIL_DELAYS_MS: 'ACH=60000,WIRE=60000,SWIFT=60000,BALANCE=60000', PROJECTIONS: 'async' },
  // The consumers' failure lines are expected here; they stay in the captured log.
  { webhooks: { tuning: FAST_DISPATCHER }, printRuntimeErrors: false },
)
const receiver = await startReceiver()
t.teardown(() => receiver.close())
const db = h.runtime.db
const orgA = h.org.organizationId
const orgB = await h.newOrganization('The other tenant')
const asB = { apiKey: orgB.apiKey }
/** B's client: every helper's request carries B's key. */
const hB: Client = { request: (options) => h.request({ ...options, apiKey: options.apiKey ?? orgB.apiKey }) }
const health = async () => (await h.request({ method: 'GET', url: '/health', apiKey: null })).json() as Health

// Both tenants ready before anything goes wrong: a customer, two balance accounts, an endpoint.
await createEndpoint(h, { url: receiver.url('/a') })
await createEndpoint(h, { url: receiver.url('/b') }, orgB.apiKey)
const alice = await approvedCustomer(h)
const [a1, a2] = [await usdBalance(h, alice), await usdBalance(h, alice)]
const bob = await approvedCustomer(hB)
const [b1, b2] = [await usdBalance(hB, bob), await usdBalance(hB, bob)]
await fundIn(h, a1, '10.00')
await fundIn(hB, b1, '50.00')

let transferA = ''
/** Rails steps of a balance-to-balance transfer, with room to spare. */
const RAIL_STEPS = 12

const BUGS = [
  // The balances projector cannot write A1's balance.
  ['poisoned_balance', 'balances', `NEW.account_id = '${a1}'`],
  // The webhook subscriber cannot store a message of A's.
  ['poisoned_messages', 'webhook_messages', `NEW.organization_id = '${orgA}'`],
  // A workflow's command cannot append to A2's stream (the credit of A's transfer).
  ['poisoned_credit', 'es_events', `NEW.stream_name = 'account-${a2}'`],
] as const

t.test('a bug meets tenant A in each consumer group: A parks, B carries on', async (t) => {
  for (const [name, table, when] of BUGS) {
    await sql
      .raw(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'a bug for this tenant'; END $$;
         CREATE TRIGGER ${name} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`,
      )
      .execute(db)
  }
  // A's business goes on, as far as A's own consumers allow: a deposit, a transfer A1 -> A2 started.
  await fundIn(h, a1, '5.00')
  transferA = (await created(h, { source: { accountId: a1 }, destination: { accountId: a2 }, sourceAmount: '100' })).id
  // The rails' steps until the transfer workflow meets the bug on its way to A2 (at the step where
  // the flow credits a balance destination). 409: nothing for the rails to do, the workflow's turn;
  // 500: the API's own path to A2 met the bug too, as it would.
  const workflowParked = async () => (await listDeadLetters(db, { consumer: 'workflow:transfer_money' })).length > 0
  const steps: number[] = []
  for (let step = 0; step < RAIL_STEPS && !(await workflowParked()); step++) {
    steps.push((await h.request({ method: 'POST', url: `/v1/sandbox/transfers/${transferA}/advance` })).statusCode)
    await eventually(workflowParked, (yes) => yes, 'the workflow parked', 1_500).catch(() => false)
  }
  t.ok(
    steps.every((status) => [200, 409, 500].includes(status)),
    `A's transfer advanced: ${steps.join(', ')}`,
  )
  // The Merkle sealer reads no event's data (a leaf is the stored hash): no bug of a projector reaches it.
  const sealer = (c: { name: string }) => c.name === MERKLE_SEALER
  const parked = await eventually(
    health,
    (body) => body.consumers.every((c) => sealer(c) || c.status === 'parked'),
    'every group parked something of A',
    20_000,
  )
  t.equal(parked.status, 'degraded', 'health says so, still 200')
  t.match(parked.consumers.find(sealer), { status: 'ok' }, 'the sealer goes on')
  t.ok(
    parked.consumers.filter((c) => !sealer(c)).every((c) => (c.parked ?? 0) >= 1 && (c.parkedStreams ?? 0) >= 1),
    `each group shows its parked counts: ${JSON.stringify(parked.consumers)}`,
  )
  const letters = await listDeadLetters(db)
  t.ok(
    letters.every((l) => l.organizationId === orgA),
    'every dead letter is A’s',
  )
  t.ok(
    letters.some((l) => l.consumer === 'workflow:transfer_money' && l.stream === `transfer-${transferA}` && l.reason === 'failed'),
    'the transfer workflow parked A’s transfer',
  )
  t.ok(
    letters.some((l) => l.consumer === 'balances' && l.stream === `account-${a1}` && l.reason === 'failed'),
    'the balances projector parked A1',
  )
  t.ok(
    letters.some((l) => l.consumer === 'webhook_messages' && l.reason === 'failed'),
    'the subscriber parked a stream of A’s',
  )

  // B: a transfer completes, its webhooks are delivered, its reads are fresh.
  const transferB = await created(hB, { source: { accountId: b1 }, destination: { accountId: b2 }, sourceAmount: '200' })
  const done = await advanceUntil(hB, transferB.id, 'COMPLETED', 12)
  t.equal(done.status, 'COMPLETED', 'B’s transfer completes')
  t.equal(
    await eventually(
      () => availableOf(hB, b2),
      (v) => v === '200',
      'B2 credited',
    ),
    '200',
    'and credits B2',
  )
  await receiver.waitFor(
    (requests) => requests.some((r) => r.path === '/b' && r.body.includes(transferB.id) && r.body.includes('"transfer.completed"')),
    15_000,
    'B’s transfer.completed webhook',
  )
  t.pass('B’s webhooks are delivered')
  await fundIn(hB, b1, '1.00')
  t.equal(await availableOf(hB, b1), '4900', 'B’s balance read right after its deposit is fresh (50.00 - 2.00 + 1.00)')
  const customer = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'Fresh', lastName: 'Read' },
    ...asB,
  })
  t.equal(customer.statusCode, 201)
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${customer.json().id}`, ...asB })).statusCode, 200, 'read back at once')

  // A meanwhile: what the parked consumers hold back is not there, and nothing else is lost.
  t.equal(await availableOf(h, a1), '1000', 'A1’s balance waits at its last applied event')
  t.equal(await availableOf(h, a2), '0', 'A2 not credited')
  t.notOk(
    receiver.forPath('/a').some((r) => r.body.includes(transferA)),
    'no webhook of A’s transfer yet',
  )
})

t.test('the bugs fixed, a replay catches A’s streams up in order', async (t) => {
  for (const [name, table] of BUGS) await sql.raw(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}()`).execute(db)
  const run = await runCli(['projections', 'parked', 'replay', '--all', '--yes', '--actor', 'operator'], {
    DATABASE_URL: h.runtime.databaseUrl,
  })
  t.equal(run.code, 0, run.stderr)
  const { outcomes } = stdoutJson<{ outcomes: Outcome[] }>(run)
  t.ok(outcomes.length >= 3, `${outcomes.length} parked streams replayed`)
  t.ok(
    outcomes.every((o) => o.remaining === 0 && o.failed === undefined && o.replayed.length > 0),
    'each replayed whole',
  )
  t.same(await listDeadLetters(db), [], 'no dead letter left')

  // The replayed workflow step delivers it (no `advance` here: that would deliver it itself).
  const doneA = await eventually(
    () => getTransfer(h, transferA),
    (tr) => tr.status === 'COMPLETED',
    'A’s transfer completed',
  )
  t.equal(doneA.status, 'COMPLETED', 'A’s transfer completes')
  t.equal(
    await eventually(
      () => availableOf(h, a2),
      (v) => v === '100',
      'A2 credited',
    ),
    '100',
    'A2 credited',
  )
  t.equal(
    await eventually(
      () => availableOf(h, a1),
      (v) => v === '1400',
      'A1',
    ),
    '1400',
    'A1: 10.00 + 5.00 - 1.00',
  )

  // In order: each entry of A1's history is the one before it plus its change.
  const { rows } = await sql<{ change: string; after: string }>`
    SELECT available_change::text AS change, available_after::text AS after
    FROM balance_entries WHERE account_id = ${a1} ORDER BY seq`.execute(db)
  let running = 0n
  const adds = rows.every((r) => (running += BigInt(r.change)) === BigInt(r.after))
  t.ok(rows.length >= 3 && adds, `A1's ${rows.length} balance entries add up in order`)

  // A's webhook messages, stream by stream, in the order of their events.
  const messages = await sql<{ stream: string; revision: string }>`
    SELECT e.stream_name AS stream, e.stream_revision::text AS revision FROM webhook_messages m
    JOIN es_events e ON m.id = 'evt_' || e.event_id::text WHERE m.organization_id = ${orgA} ORDER BY m.seq`.execute(db)
  const last = new Map<string, bigint>()
  const ordered = messages.rows.every((m) => {
    const before = last.get(m.stream)
    last.set(m.stream, BigInt(m.revision))
    return before === undefined || before < BigInt(m.revision)
  })
  t.ok(messages.rows.length > 0 && ordered, `A's ${messages.rows.length} webhook messages follow their streams' order`)
  await receiver.waitFor(
    (requests) => requests.some((r) => r.path === '/a' && r.body.includes(transferA) && r.body.includes('"transfer.completed"')),
    15_000,
    'A’s transfer.completed webhook',
  )
  t.pass('A’s webhooks are delivered')
  const healthy = await eventually(health, (body) => body.status === 'ok', 'health ok')
  t.same(
    healthy.consumers.map((c) => c.status),
    ['ok', 'ok', 'ok', 'ok'],
  )
})
