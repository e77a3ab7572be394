// What a hot account's batch costs the balances projector: 100 holds on one account are two
// statements (one read, one write), whatever the batch size, and take a few milliseconds; applied one
// at a time they are two hundred. Prints the measured medians (the figure docs/decisions.md quotes).
import t from 'tap'
import { randomUUID } from 'node:crypto'
import type { Kysely, KyselyPlugin } from 'kysely'
import { type AccountCommand, type AccountState, accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { parseCurrentEventData } from '../../events/catalog.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'
import { balancesProjector } from '../../projections/balances.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import { testProtection } from '../domain/projectorSpec.js'
import { createTestDatabase } from '../harness/testDatabase.js'

const ORG = 'org_01h00000000000000000000000'
const BATCH = 100
const ROUNDS = 15

const { db, pool } = openReadDatabase(await createTestDatabase(t), 2)
t.teardown(() => db.destroy())
await migrateToLatest(db)
let statements = 0
const counting: KyselyPlugin = {
  transformQuery: (args) => {
    statements++
    return args.node
  },
  transformResult: async (args) => args.result,
}
const counted: Kysely<ReadDatabase> = db.withPlugin(counting)
const ctx = { protection: testProtection(pool) }

let commit = 0n
const recorded = (events: AccountEvent[]): RecordedEvent[] => {
  commit++
  return events.map((e, i) => ({
    id: randomUUID(),
    stream: 'bench',
    revision: BigInt(i),
    position: encodePosition(commit, BigInt(i)),
    type: e.type,
    data: parseCurrentEventData(e),
    metadata: {},
    recordedAt: new Date(),
  }))
}

/** A funded account (opened and credited, applied), and a generator of its next `count` holds. */
async function hotAccount(n: number) {
  const accountId = `acc_01h0000000000000000000${String(n).padStart(4, '0')}`
  let state: AccountState = accountDecider.initialState()
  const decide = (command: AccountCommand) => {
    const events = accountDecider.decide(command, state)
    for (const e of events) state = accountDecider.evolve(state, e)
    return events
  }
  const now = new Date().toISOString()
  const setup = [
    ...decide({
      type: 'OpenAccount',
      organizationId: ORG,
      accountId,
      now,
      status: 'ACTIVE',
      account: {
        customerId: null,
        kind: 'USD_BALANCE',
        type: 'INFINITE_BANK',
        currencyCodes: ['USD'],
        paymentRails: [],
        holdsBalance: true,
        balanceSourceEligible: true,
        provider: 'SANDBOX',
        counterpartyId: null,
        metadata: {},
        details: { kind: 'USD_BALANCE' },
      },
    }),
    ...decide({ type: 'CreditFunds', organizationId: ORG, accountId, now, cause: 'dep', currency: 'USD', amountMinor: 10n ** 12n }),
  ]
  await db.transaction().execute((trx) => balancesProjector.applyMany!(trx, recorded(setup), ctx))
  let next = 0
  return (count: number) =>
    recorded(
      Array.from({ length: count }, () =>
        decide({ type: 'PlaceHold', organizationId: ORG, accountId, now, holdId: `hld_${next++}`, currency: 'USD', amountMinor: 1n }),
      ).flat(),
    )
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

t.test(`a batch of ${BATCH} holds on one account: two statements, a few milliseconds`, async (t) => {
  const holds = await hotAccount(1)
  const batched: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const events = holds(BATCH)
    statements = 0
    const started = performance.now()
    await counted.transaction().execute((trx) => balancesProjector.applyMany!(trx, events, ctx))
    batched.push(performance.now() - started)
    t.equal(statements, 2, `round ${round + 1}: one read and one write`)
  }
  const single = await hotAccount(2)
  const oneByOne: number[] = []
  for (let round = 0; round < 3; round++) {
    const events = single(BATCH)
    const started = performance.now()
    await db.transaction().execute(async (trx) => {
      for (const event of events) await balancesProjector.apply(trx, event, ctx)
    })
    oneByOne.push(performance.now() - started)
  }
  const row = await db
    .selectFrom('balances')
    .select(['available', 'committed'])
    .where('account_id', '=', 'acc_01h00000000000000000000001')
    .executeTakeFirstOrThrow()
  t.same(row, { available: String(10n ** 12n - BigInt(BATCH * ROUNDS)), committed: String(BATCH * ROUNDS) })
  // Medians and minimums: on a shared machine the median carries other processes' load and the commit's fsync.
  t.comment(
    `balances projector, ${BATCH} holds on one account, with the commit: batched median ${median(batched).toFixed(1)} ms, ` +
      `min ${Math.min(...batched).toFixed(1)} ms; one event at a time median ${median(oneByOne).toFixed(1)} ms, ` +
      `min ${Math.min(...oneByOne).toFixed(1)} ms`,
  )
})
