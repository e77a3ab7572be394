// `ledger verify` as a child process against a real Postgres beside a running app: a clean ledger
// verifies with its totals per currency and per system account (exit 0, text or --json); a
// tampered read-model balance is named (account, currency, side); an unbalanced transaction written
// straight into the store, bypassing the decider, is named by event id, stream and transaction id.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { startTestApp } from '../harness/testApp.js'
import { balanceSeeder, newCustomer } from '../balances/fixtures.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

type Report = {
  consistent: boolean
  checkedThrough: string
  events: number
  transactions: number
  totals: Record<string, string>[]
  organizations: { organizationId: string; totals: Record<string, string>[] }[]
  balanceRowsCompared: number
  aggregatesCompared: number
  discrepancy: Record<string, unknown> | null
}

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const verify = (...args: string[]) => runCli(['ledger', 'verify', ...args], env)
const seed = balanceSeeder(h)
const ORG = h.org.organizationId

const customer = await newCustomer(h)
const a = await seed.open(ORG, customer)
const b = await seed.open(ORG, customer, ['USD', 'USDC'])
await seed.open(ORG, null, ['USDC'])
await seed.credit(ORG, a, 10_000n, 'dep_a')
await seed.credit(ORG, b, 5_000n, 'dep_b')
await seed.credit(ORG, b, 3_000_000n, 'dep_b_usdc', 'USDC')
await seed.hold(ORG, a, 'hld_1', 2_000n)
await seed.hold(ORG, a, 'hld_2', 1_000n)
await seed.settle(ORG, a, 'hld_1')
await seed.release(ORG, a, 'hld_2')
await seed.hold(ORG, b, 'hld_3', 400n)
await seed.reverse(ORG, b, 600n, 'dep_b')
await seed.credit(ORG, a, 250n, 'drw_1', 'USD', true)

t.test('a clean ledger: exit 0, every transaction counted, totals per currency and per system account', async (t) => {
  const run = await verify('--json')
  t.equal(run.code, 0, run.stderr)
  const report = stdoutJson<Report>(run)
  t.equal(report.consistent, true)
  t.equal(report.discrepancy, null)
  t.equal(report.transactions, 10, 'one transaction per funds event')
  t.ok(report.events >= report.transactions)
  t.equal(report.balanceRowsCompared, 4, 'a row per account and currency')
  t.equal(report.aggregatesCompared, 3, 'every account replayed through its aggregate (fewer than the sample)')
  t.same(report.totals, [
    {
      currency: 'USD',
      sum: '0',
      world: '-12400',
      clearing: '0',
      suspense: '0',
      fees: '0',
      credit_line: '-250',
      mint: '0',
      fx_clearing: '0',
      fx_spread: '0',
      balanceAccountsAvailable: '12250',
      balanceAccountsCommitted: '400',
    },
    {
      currency: 'USDC',
      sum: '0',
      world: '-3000000',
      clearing: '0',
      suspense: '0',
      fees: '0',
      credit_line: '0',
      mint: '0',
      fx_clearing: '0',
      fx_spread: '0',
      balanceAccountsAvailable: '3000000',
      balanceAccountsCommitted: '0',
    },
  ])

  const text = await verify('--sample', '1')
  t.equal(text.code, 0, text.stderr)
  t.match(
    text.stdout,
    /^ledger verified through position \S+: \d+ events, 10 transactions, 4 balance rows and 1 account aggregates compared; 0 transfers/,
  )
  t.match(
    text.stdout,
    /USD: sum 0\.00 USD; world -124\.00 USD, clearing 0\.00 USD, suspense 0\.00 USD, fees 0\.00 USD, credit_line -2\.50 USD/,
  )
  t.same(
    report.organizations.map((o) => o.organizationId),
    [ORG],
    'one organization, whose own totals are the whole ledger',
  )
  t.same(report.organizations[0]?.totals, report.totals)

  const usage = await verify('--sample', '0')
  t.equal(usage.code, 2)
  t.equal(stderrError(usage).error, 'usage_error')
})

t.test('a tampered read-model balance is named: account, currency, side, both values; exit 1', async (t) => {
  await sql`UPDATE balances SET available = available + 1 WHERE account_id = ${b} AND currency = 'USD'`.execute(h.runtime.db)
  t.teardown(() => sql`UPDATE balances SET available = available - 1 WHERE account_id = ${b} AND currency = 'USD'`.execute(h.runtime.db))
  const run = await verify('--json')
  t.equal(run.code, 1)
  const report = stdoutJson<Report>(run)
  t.equal(report.consistent, false)
  t.same(report.discrepancy, {
    kind: 'balance_mismatch',
    accountId: b,
    currency: 'USD',
    side: 'available',
    readModel: '4001',
    ledger: '4000',
  })
  t.match(stderrError(run), { error: 'ledger_discrepancy', discrepancy: { kind: 'balance_mismatch', accountId: b } })

  const text = await verify()
  t.equal(text.code, 1)
  t.match(text.stdout, /^LEDGER DISCREPANCY/)
  t.match(text.stdout, new RegExp(`first discrepancy: .*"balance_mismatch".*${b}`))
})

t.test('a hold missing from the open holds table is named (committed is the sum of the open holds)', async (t) => {
  const removed = await sql<{ hold_id: string }>`DELETE FROM balance_holds WHERE hold_id = 'hld_3' RETURNING hold_id`.execute(h.runtime.db)
  t.equal(removed.rows.length, 1)
  t.teardown(() =>
    sql`INSERT INTO balance_holds (account_id, hold_id, seq, currency, amount, created_at)
        SELECT account_id, cause_id, seq, currency, committed_change, created_at
        FROM balance_entries WHERE transaction_id = 'hold:hld_3'`.execute(h.runtime.db),
  )
  const run = await verify('--json')
  t.equal(run.code, 1)
  t.same(stdoutJson<Report>(run).discrepancy, {
    kind: 'committed_not_open_holds',
    accountId: b,
    currency: 'USD',
    committed: '400',
    openHolds: '0',
  })
})

/** Appends a balanced movement straight into the store, as a bug or a tamperer would, and waits for the consumers. */
async function forged(t: Pick<typeof import('tap'), 'ok'>, transactionId: string, to: string) {
  const appended = await h.runtime.store.appendToStream(
    `forged-${randomUUID()}`,
    [
      {
        id: randomUUID(),
        type: 'ForgedMovement',
        data: {
          transaction: {
            id: transactionId,
            kind: 'SETTLE',
            postings: [
              { ledgerAccount: 'world', currency: 'USD', amountMinor: '-70' },
              { ledgerAccount: to, currency: 'USD', amountMinor: '70' },
            ],
            description: 'Forged',
          },
        },
        metadata: { organizationId: ORG, actor: 'attacker' },
      },
    ],
    { expectedRevision: 'any' },
  )
  t.ok(await h.runtime.runner.waitFor(appended.position, 10_000), 'the consumers passed it')
  // The ledger is verified through the balances projection's checkpoint, which moves with the next event it handles.
  await seed.credit(ORG, b, 1n, `after-${transactionId}`)
}

t.test('money in clearing or suspense must belong to a transfer that explains it', async (t) => {
  // Named by the first discrepancy found, in this order of appends: each stays in the log, so each is checked alone first.
  const transferId = `tfr_${'0'.repeat(21)}forge`
  await forged(t, `settle:${transferId}`, 'clearing')
  const stuck = stdoutJson<Report>(await verify('--json'))
  t.same(
    stuck.discrepancy,
    { kind: 'clearing_not_in_flight', transferId, status: 'none', currency: 'USD', clearing: '70' },
    'money left in clearing with no step still to move it',
  )
  t.equal(stuck.organizations[0]?.totals.find((x) => x.currency === 'USD')?.clearing, '70', 'the organization’s totals show it')
  await forged(t, 'settle:no-transfer-here', 'suspense')
  t.match(stdoutJson<Report>(await verify('--json')).discrepancy, {
    kind: 'unattributed_transaction',
    transactionId: 'settle:no-transfer-here',
    missing: 'transfer',
  })
})

t.test('an unbalanced transaction written straight into the store is named by event, stream and transaction', async (t) => {
  const victim = await seed.open(ORG, customer)
  const id = randomUUID()
  const stream = `account-${victim}`
  const appended = await h.runtime.store.appendToStream(
    stream,
    [
      {
        id,
        type: 'FundsCredited',
        data: {
          accountId: victim,
          cause: 'forged',
          transaction: {
            id: 'credit:forged',
            kind: 'CREDIT',
            postings: [
              { ledgerAccount: 'world', currency: 'USD', amountMinor: '-100' },
              { ledgerAccount: `available:${victim}`, currency: 'USD', amountMinor: '150' },
            ],
            description: 'Money from nowhere',
          },
          at: new Date().toISOString(),
        },
        metadata: { organizationId: ORG, actor: 'attacker' },
      },
    ],
    { expectedRevision: 'any' },
  )
  await h.runtime.runner.waitFor(appended.position, 10_000)
  const run = await verify('--json')
  t.equal(run.code, 1, run.stderr)
  const report = stdoutJson<Report>(run)
  t.same(report.discrepancy, {
    kind: 'unbalanced_transaction',
    eventId: id,
    stream,
    eventType: 'FundsCredited',
    transactionId: 'credit:forged',
    sums: { USD: '50' },
    zeroPosting: false,
  })
  t.equal(report.totals.find((x) => x.currency === 'USD')!.sum, '50', 'the totals show the money made from nowhere')
  t.match(stderrError(run), { error: 'ledger_discrepancy', discrepancy: { kind: 'unbalanced_transaction', eventId: id } })
})
