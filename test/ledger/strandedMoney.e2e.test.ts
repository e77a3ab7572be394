// Issue 24's money defects, through HTTP against real Postgres: a credit the domain refuses inside a
// workflow is an outcome (suspense, an unwound draw, a held sweep), never a halted consumer; closing
// respects what is in flight; a reversal takes the money back from where it went; a refused request
// leaves no trace; a reused reference is refused. After each, every consumer is healthy, another
// organization's transfers still complete, and `ledger verify` proves the organization's money.
import t from 'tap'
import { accountDecider } from '../../domain/account/decider.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import { runCli, stdoutJson } from '../cli/fixtures/runCli.js'
import { keyedClient } from '../harness/httpClient.js'
import { startTestApp } from '../harness/testApp.js'
import { closeAccount, readyFacility } from '../liquidity/fixtures.js'
import { fixedRoute, simulate, swept } from '../fixed-routes/fixedRouteWorld.js'
import {
  advance,
  advanceUntil,
  approvedCustomer,
  availableOf,
  created,
  eventually,
  fundIn,
  getTransfer,
  usBankAccount,
  usdBalance,
} from '../transfers/transferWorld.js'

const h = await startTestApp(t, { SANDBOX_RAIL_DELAYS_MS: 'ACH=60000,WIRE=60000,SWIFT=60000,BALANCE=60000' })
const orgA = h.org.organizationId
const orgB = await h.newOrganization('Other tenant')
const post = (url: string, payload?: object) => h.request({ method: 'POST', url, ...(payload ? { payload } : {}) })

type Totals = { currency: string; sum: string; clearing: string; suspense: string }
type Report = { consistent: boolean; discrepancy: unknown; organizations: { organizationId: string; totals: Totals[] }[] }

async function verified(t: Tap): Promise<Report> {
  const run = await runCli(['ledger', 'verify', '--json', '--sample', 'all'], { DATABASE_URL: h.runtime.databaseUrl })
  const report = stdoutJson(run) as Report
  t.equal(run.code, 0, `ledger verify exits 0 (${run.stderr.slice(0, 300)})`)
  t.equal(report.consistent, true, `ledger verified: ${JSON.stringify(report.discrepancy)}`)
  return report
}

const totalsOf = (report: Report, organizationId: string, currency: string): Totals | undefined =>
  report.organizations.find((o) => o.organizationId === organizationId)?.totals.find((c) => c.currency === currency)

type Tap = Pick<typeof t, 'equal' | 'ok' | 'same' | 'match' | 'not'>

/** Every consumer ok: nothing halted, nothing parked. */
async function healthy(t: Tap): Promise<void> {
  const health = await eventually(
    async () => (await h.request({ method: 'GET', url: '/health' })).json() as { status: string; consumers: { status: string }[] },
    (body) => body.status === 'ok',
    'health ok',
    5_000,
  ).catch((error: Error) => ({ status: error.message, consumers: [] }))
  t.equal(health.status, 'ok', 'every consumer is ok')
}

/** The other tenant's client: every request with its key. */
const tenantB = keyedClient(h, orgB.apiKey)
const carol = await approvedCustomer(tenantB)

/** The other tenant still moves money: an internal transfer of theirs completes. */
async function otherTenantMoves(t: Tap): Promise<void> {
  const from = await usdBalance(tenantB, carol)
  const to = await usdBalance(tenantB, carol)
  await fundIn(tenantB, from, '5.00')
  const transfer = await created(tenantB, { source: { accountId: from }, destination: { accountId: to }, sourceAmount: '100' })
  const done = await advanceUntil(tenantB, transfer.id, 'COMPLETED')
  t.equal(done.status, 'COMPLETED', "the other tenant's transfer completes")
  t.equal(
    await eventually(
      () => availableOf(tenantB, to),
      (v) => v === '100',
      'credited',
    ),
    '100',
    'and is credited',
  )
}

/** A close that races the route's checks: the account command alone, as a concurrent request would land. */
const closeRacing = (accountId: string) => closeAccount(h, orgA, accountId)

t.test('D1(a): closing a destination with a transfer on its way is refused; a racing close holds the money in suspense', async (t) => {
  const alice = await approvedCustomer(h)
  const from = await usdBalance(h, alice)
  const to = await usdBalance(h, alice)
  await fundIn(h, from, '100.00')
  const transfer = await created(h, { source: { accountId: from }, destination: { accountId: to }, sourceAmount: '1000' })
  await eventually(
    () => getTransfer(h, transfer.id),
    (tr) => tr.status === 'PROCESSING',
    'funded',
  )
  const close = await post(`/v1/accounts/${to}/close`)
  t.equal(close.statusCode, 409, 'the destination has a transfer on its way')
  t.equal(close.json().code, 'account_has_incoming_transfers')
  await closeRacing(to)
  t.equal((await advance(h, transfer.id)).statusCode, 200, 'the balance credit leg starts')
  const moved = await eventually(
    () => getTransfer(h, transfer.id),
    (tr) => tr.status === 'IN_REVIEW',
    'held in review',
  )
  t.equal(moved.status, 'IN_REVIEW', 'the credit was refused after funds were received: IN_REVIEW')
  await healthy(t)
  t.equal(await availableOf(h, from), '9000', 'the source paid')
  const report = await verified(t)
  t.equal(totalsOf(report, orgA, 'USD')?.suspense, '1000', 'the money is in suspense')
  t.equal(totalsOf(report, orgA, 'USD')?.clearing, '0', 'nothing left in clearing')
  const list = await runCli(['suspense', 'list'], { DATABASE_URL: h.runtime.databaseUrl })
  t.match(stdoutJson(list), { items: [{ transferId: transfer.id, amount: { currency: 'USD', value: '1000' } }] })
  const resolve = await runCli(['suspense', 'resolve', transfer.id, '--to', from, '--reason', 'back to the sender', '--yes'], {
    DATABASE_URL: h.runtime.databaseUrl,
  })
  t.equal(resolve.code, 0, `resolved (${resolve.stderr.slice(0, 300)})`)
  t.equal(
    await eventually(
      () => availableOf(h, from),
      (v) => v === '10000',
      'returned',
    ),
    '10000',
    'returned to the source',
  )
  t.equal((await getTransfer(h, transfer.id)).status, 'REVERSED')
  t.equal(totalsOf(await verified(t), orgA, 'USD')?.suspense, '0', 'suspense is empty again')
  await otherTenantMoves(t)
})

for (const [amount, trigger] of [
  ['66.60', 'a return'],
  ['99.90', 'a reversal'],
] as const) {
  t.test(`D1(b): ${trigger} of a payout whose source was closed meanwhile is held in suspense`, async (t) => {
    const alice = await approvedCustomer(h)
    const source = await usdBalance(h, alice)
    const bank = await usBankAccount(h, alice)
    await fundIn(h, source, amount)
    const minor = amount.replace('.', '')
    const payout = await created(h, { source: { accountId: source }, destination: { accountId: bank }, sourceAmount: minor })
    await advanceUntil(h, payout.id, 'COMPLETED')
    await eventually(
      () => availableOf(h, source),
      (v) => v === '0',
      'paid out',
    )
    const close = await post(`/v1/accounts/${source}/close`)
    t.equal(close.statusCode, 200, 'nothing is on its way to the source: it closes')
    const back = (await advance(h, payout.id)).json()
    t.ok(['REVERSED', 'IN_REVIEW'].includes(back.status), `the rail sent it back (${back.status})`)
    const held = await eventually(
      () => getTransfer(h, payout.id),
      (tr) => tr.status === 'IN_REVIEW',
      'held in review',
    )
    t.equal(held.status, 'IN_REVIEW', 'the returned money could not land: IN_REVIEW')
    await healthy(t)
    t.ok(Number(totalsOf(await verified(t), orgA, 'USD')?.suspense) >= Number(minor), 'the returned money is in suspense')
    await otherTenantMoves(t)
  })
}

t.test('D1(c): a draw whose payout treasury closed meanwhile fails and is unwound', async (t) => {
  const treasury = await readyFacility(h)
  const workflows = h.runtime.runner.workflows
  await workflows.stop()
  const draw = await post('/v1/liquidity/facility/draws', { amount: '1000' })
  t.equal(draw.statusCode, 201, 'the draw is taken')
  await closeRacing(treasury)
  await workflows.start()
  const read = () => h.request({ method: 'GET', url: `/v1/liquidity/facility/draws/${draw.json().id}` }).then((r) => r.json())
  const failed = await eventually(read, (d) => d.status === 'FAILED', 'the draw failed')
  t.equal(failed.status, 'FAILED')
  const facility = (await h.request({ method: 'GET', url: '/v1/liquidity/facility' })).json()
  t.equal(facility.creditLine.borrowedAmount, '0', 'nothing is borrowed')
  await healthy(t)
  await verified(t)
  await otherTenantMoves(t)
})

t.test('D1(d): a deposit whose sweep target closed before the sweep is held, not lost', async (t) => {
  const alice = await approvedCustomer(h)
  const target = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sourceRails: ['ACH'], sweepTargetAccountId: target })
  const workflows = h.runtime.runner.workflows
  await workflows.stop()
  // A deposit recorded just before its target closed (the simulate request crashed before sweeping it).
  const transferId = newId('tfr')
  await h.runtime.commands.handle(
    accountDecider,
    streams.account(route.id),
    {
      type: 'RecordFixedRouteDeposit',
      organizationId: orgA,
      accountId: route.id,
      now: new Date().toISOString(),
      deposit: {
        reference: 'raced-1',
        amount: { currency: 'USD', amountMinor: '2500' },
        rail: 'ACH',
        originator: null,
        senderBank: null,
        hold: null,
        transferId,
      },
      refusal: null,
    },
    { organizationId: orgA, requestId: newId('req'), actor: 'test' },
  )
  await closeRacing(target)
  await workflows.start()
  const held = await eventually(
    () => getTransfer(h, transferId),
    (tr) => tr.status === 'IN_REVIEW',
    'the sweep is held',
  )
  t.equal(held.status, 'IN_REVIEW', 'the sweep exists, held in review')
  await healthy(t)
  await verified(t)
  await otherTenantMoves(t)
})

t.test('D3: reversing an internal transfer takes the money back from its destination; 409 once it is spent', async (t) => {
  const alice = await approvedCustomer(h)
  const a1 = await usdBalance(h, alice)
  const a2 = await usdBalance(h, alice)
  const bank = await usBankAccount(h, alice)
  await fundIn(h, a1, '50.00')
  const transfer = await created(h, { source: { accountId: a1 }, destination: { accountId: a2 }, sourceAmount: '1000' })
  await advanceUntil(h, transfer.id, 'COMPLETED')
  t.equal(
    await eventually(
      () => availableOf(h, a2),
      (v) => v === '1000',
      'delivered',
    ),
    '1000',
  )
  const reversed = await post(`/v1/sandbox/transfers/${transfer.id}/reverse`)
  t.equal(reversed.statusCode, 200)
  t.equal(reversed.json().status, 'REVERSED')
  t.equal(
    await eventually(
      () => availableOf(h, a1),
      (v) => v === '5000',
      'returned',
    ),
    '5000',
    'A1 50.00',
  )
  t.equal(await availableOf(h, a2), '0', 'A2 0.00: the credit was taken back')
  const again = await created(h, { source: { accountId: a1 }, destination: { accountId: a2 }, sourceAmount: '1000' })
  await advanceUntil(h, again.id, 'COMPLETED')
  await eventually(
    () => availableOf(h, a2),
    (v) => v === '1000',
    'delivered',
  )
  const spend = await created(h, { source: { accountId: a2 }, destination: { accountId: bank }, sourceAmount: '600' })
  await eventually(
    () => getTransfer(h, spend.id),
    (tr) => tr.status === 'PROCESSING',
    'spent',
  )
  const refused = await post(`/v1/sandbox/transfers/${again.id}/reverse`)
  t.equal(refused.statusCode, 409, 'the destination no longer holds the funds')
  t.equal(refused.json().code, 'transfer_not_reversible')
  t.equal((await getTransfer(h, again.id)).status, 'COMPLETED', 'nothing changed')
  t.equal(await availableOf(h, a2), '400')
  await healthy(t)
  const report = await verified(t)
  t.equal(totalsOf(report, orgA, 'USD')?.clearing, '0', 'nothing is left in clearing')
})

t.test('D4: a deposit racing the close of its sweep target leaves no trace when refused', async (t) => {
  const outcomes: string[] = []
  for (let i = 0; i < 12; i++) {
    const alice = await approvedCustomer(h)
    const target = await usdBalance(h, alice)
    const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sourceRails: ['ACH'], sweepTargetAccountId: target })
    const reference = `race-${i}`
    const [deposit, close] = await Promise.all([
      simulate(h, route.id, { amount: '10.00', reference }),
      post(`/v1/accounts/${target}/close`),
    ])
    outcomes.push(`${deposit.statusCode}/${close.statusCode}`)
    const sweeps = (await h.request({ method: 'GET', url: `/v1/transfers?clientReferenceId=${reference}` })).json().data as {
      status: string
    }[]
    if (deposit.statusCode === 200) {
      t.equal(sweeps.length, 1, 'an accepted deposit has its sweep')
      t.ok(['COMPLETED', 'IN_REVIEW'].includes(deposit.json().status), `swept or held (${deposit.json().status})`)
    } else {
      t.equal(deposit.statusCode, 409, `refused (${deposit.body})`)
      t.equal(sweeps.length, 0, 'a refused deposit leaves no sweep')
    }
  }
  t.comment(`deposit/close outcomes: ${outcomes.join(' ')}`)
  await healthy(t)
  await verified(t)
})

t.test('D8: a fixed-route deposit reference reused with another amount is refused', async (t) => {
  const alice = await approvedCustomer(h)
  const target = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sourceRails: ['ACH'], sweepTargetAccountId: target })
  const first = await swept(h, route.id, { amount: '10.00', reference: 'once' })
  t.equal(first.status, 'COMPLETED')
  const replies = await Promise.all(
    ['10.00', '11.00', '12.50', '10.00', '99.00'].map((amount) => simulate(h, route.id, { amount, reference: 'once' })),
  )
  t.same(
    replies.map((r) => r.statusCode),
    [200, 409, 409, 200, 409],
    'the same amount is the same deposit; another amount is refused',
  )
  t.equal(replies[1]!.json().code, 'reference_reused')
  t.equal(await availableOf(h, target), '1000', 'credited once')
  await verified(t)
})
