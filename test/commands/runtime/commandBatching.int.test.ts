// Commands queued on one stream are decided together into one append (commandBatch.ts): fewer
// commits on a hot stream, each command answered with its own events and state; a refused command
// is refused alone; a batch never exceeds its bound; a command with an id is decided alone.
import t from 'tap'
import { COMMAND_BATCH_LIMITS, decideBatch, takeBatch } from '../../../commands/runtime/commandBatch.js'
import { createCommandRuntime } from '../../../commands/runtime/commandRuntime.js'
import { accountDecider } from '../../../domain/account/decider.js'
import { DomainError } from '../../../domain/errors.js'
import type { EventStore } from '../../../events/store/port.js'
import { getPostgresEventStore } from '../../../events/store/postgres/index.js'
import { createTestDatabase } from '../../harness/testDatabase.js'

const inner = await getPostgresEventStore({ connectionString: await createTestDatabase(t) })
t.teardown(() => inner.close())
let appends = 0
const store: EventStore = {
  ...inner,
  appendToStream: (stream, events, options) => {
    appends++
    return inner.appendToStream(stream, events, options)
  },
}
const commands = createCommandRuntime({ store })
const ORG = 'org_01h00000000000000000000000'
const ACC = 'acc_01h0000000000000000000000b'
const stream = `account-${ACC}`
const origin = { organizationId: ORG, requestId: 'req_1', actor: 'key_1' }
const now = new Date().toISOString()
const scoped = { organizationId: ORG, accountId: ACC, now }

t.before(async () => {
  await commands.handle(
    accountDecider,
    stream,
    {
      ...scoped,
      type: 'OpenAccount',
      status: 'ACTIVE',
      account: {
        customerId: null,
        kind: 'USD_BALANCE',
        type: 'INFINITE_BANK',
        currencyCodes: ['USD'],
        paymentRails: ['BALANCE'],
        holdsBalance: true,
        balanceSourceEligible: false,
        provider: 'SANDBOX_BANK',
        counterpartyId: null,
        metadata: {},
        details: { kind: 'USD_BALANCE' },
      },
    },
    origin,
  )
  await commands.handle(
    accountDecider,
    stream,
    { ...scoped, type: 'CreditFunds', cause: 'seed', currency: 'USD', amountMinor: 50n },
    origin,
  )
})

t.test('200 holds at once: every one answered on its own, in far fewer appends, none over the balance', async (t) => {
  appends = 0
  const results = await Promise.allSettled(
    Array.from({ length: 200 }, (_, i) =>
      commands.handle(
        accountDecider,
        stream,
        { ...scoped, type: 'PlaceHold', holdId: `hld_${i}`, currency: 'USD', amountMinor: 1n },
        origin,
      ),
    ),
  )
  const held = results.filter((r) => r.status === 'fulfilled')
  const refused = results.filter((r) => r.status === 'rejected')
  t.equal(held.length, 50, 'exactly the balance was held')
  t.ok(refused.every((r) => r.reason instanceof DomainError && r.reason.code === 'insufficient_funds'))
  t.ok(appends < 50, `${appends} appends carried 50 holds`)
  t.ok(appends <= Math.ceil(200 / COMMAND_BATCH_LIMITS.maxCommands), 'one append per batch at most (a batch of refusals appends nothing)')
  for (const r of held) {
    if (r.status !== 'fulfilled') continue
    t.equal(r.value.events.length, 1, 'each answer carries its own event')
    t.ok(r.value.position, 'and the position of the append that stored it')
  }
  const stored = (await inner.readStream(stream)).filter((e) => e.type === 'FundsHeld')
  t.equal(stored.length, 50)
  t.same(new Set(stored.map((e) => e.metadata.requestId)), new Set(['req_1']))
})

t.test('decideBatch: a refused command leaves the state as it was for the next', async (t) => {
  const state = (await inner.readStream(stream)).reduce(
    (s, e) => accountDecider.evolve(s, { type: e.type, data: e.data } as Parameters<typeof accountDecider.evolve>[1]),
    accountDecider.initialState(),
  )
  const entry = (amountMinor: bigint, holdId: string) => ({
    decider: accountDecider,
    command: { ...scoped, type: 'ReleaseHold' as const, holdId, amountMinor },
    origin,
  })
  const decided = decideBatch([entry(0n, 'hld_0'), entry(0n, 'hld_0'), entry(0n, 'hld_1')], state, () => [])
  t.same(
    decided.decisions.map((d) => d.ok),
    [true, false, true],
    'the second release of hld_0 is refused, the release of hld_1 still decided',
  )
})

t.test('takeBatch: bounded, one decider, from the given entry', async (t) => {
  const a = {}
  const b = {}
  const waiting = [...Array.from({ length: COMMAND_BATCH_LIMITS.maxCommands + 5 }, () => ({ decider: a })), { decider: b }]
  const first = takeBatch(waiting, waiting[0]!)
  t.equal(first.length, COMMAND_BATCH_LIMITS.maxCommands)
  const second = takeBatch(waiting, waiting[0]!)
  t.equal(second.length, 5, 'stops at another decider')
  t.same(waiting, [{ decider: b }])
})
