// The stream lock on a real PostgreSQL: holders of one stream take turns across connections (as
// two processes would), other streams do not wait, a failed command releases it; and the command
// runtime takes it only once a stream has seen a concurrent write from another process.
import t from 'tap'
import { createCommandRuntime } from '../../../commands/runtime/commandRuntime.js'
import { createPostgresStreamLock } from '../../../commands/runtime/postgresStreamLock.js'
import { type StreamLock, withStreamLock } from '../../../commands/runtime/streamLock.js'
import { organizationDecider } from '../../../domain/organization/decider.js'
import { getPostgresEventStore } from '../../../events/store/postgres/index.js'
import { createTestDatabase } from '../../harness/testDatabase.js'

const databaseUrl = await createTestDatabase(t)
const onError = (error: unknown) => t.error(error)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A lock per "process", counting the commands that took it. */
function countingLock(): StreamLock & { holds: number } {
  const lock = createPostgresStreamLock({ connectionString: databaseUrl, onError })
  const counting = {
    holds: 0,
    acquire(stream: string) {
      counting.holds++
      return lock.acquire(stream)
    },
    close: () => lock.close(),
  }
  return counting
}

t.test('holders of one stream take turns; other streams do not wait; a failure releases', async (t) => {
  const newLock = () => createPostgresStreamLock({ connectionString: databaseUrl, onError })
  const [a, b] = [newLock(), newLock()]
  t.teardown(async () => {
    await a.close()
    await b.close()
  })
  const trace: string[] = []
  const work = (name: string) => async () => {
    trace.push(`${name} in`)
    await sleep(50)
    trace.push(`${name} out`)
  }
  // The second holder comes once the first holds the lock (a fixed head start loses the race on a loaded machine).
  const inside = async (name: string) => {
    while (!trace.includes(`${name} in`)) await sleep(1)
  }
  await Promise.all([withStreamLock(a, 'stream-1', work('a')), inside('a').then(() => withStreamLock(b, 'stream-1', work('b')))])
  t.same(trace, ['a in', 'a out', 'b in', 'b out'], 'the second holder waited for the first')

  trace.length = 0
  await Promise.all([withStreamLock(a, 'stream-1', work('a')), inside('a').then(() => withStreamLock(b, 'stream-2', work('b')))])
  t.same(trace, ['a in', 'b in', 'a out', 'b out'], 'another stream did not wait')

  await t.rejects(
    withStreamLock(a, 'stream-1', async () => {
      throw new Error('decider refused')
    }),
    /decider refused/,
  )
  const next = await Promise.race([withStreamLock(b, 'stream-1', async () => 'taken'), sleep(2_000).then(() => 'still locked')])
  t.equal(next, 'taken', 'released after a failure')
})

t.test('two stores on one database: uncontended commands take no lock, a hot stream takes turns with no conflict', async (t) => {
  const stores = [
    await getPostgresEventStore({ connectionString: databaseUrl, onError }),
    await getPostgresEventStore({ connectionString: databaseUrl, onError }),
  ]
  const locks = [countingLock(), countingLock()]
  // Two runtimes, as two processes: each with its own queue, kept states and lock.
  const runtimes = stores.map((store, i) => createCommandRuntime({ store, streamLock: locks[i]! }))
  t.teardown(async () => {
    for (const store of stores) await store.close()
    for (const lock of locks) await lock.close()
  })
  const context = { organizationId: 'org_hot', requestId: 'req_1', actor: 'key_1' }
  const now = new Date().toISOString()
  const stream = 'organization-org_hot'
  const createKey = (keyId: string, digit: number) => ({
    type: 'CreateApiKey' as const,
    organizationId: 'org_hot',
    keyId,
    environment: 'sandbox' as const,
    keyHash: String(digit).repeat(64),
    last4: '0000',
    now,
  })
  await runtimes[0]!.handle(
    organizationDecider,
    stream,
    { type: 'CreateOrganization', organizationId: 'org_hot', name: 'Hot', now },
    context,
  )
  await runtimes[1]!.handle(organizationDecider, stream, createKey('key_first', 9), context)
  t.same(
    locks.map((l) => l.holds),
    [0, 0],
    'no lock without contention',
  )

  const COMMANDS = 40
  const results = await Promise.all(
    Array.from({ length: COMMANDS }, (_, i) =>
      runtimes[i % 2]!.handle(organizationDecider, stream, createKey(`key_${i}`, i % 10), context).then(
        () => 'ok',
        (error: unknown) => String(error),
      ),
    ),
  )
  t.same(
    results.filter((r) => r !== 'ok'),
    [],
    'every command landed',
  )
  t.ok(locks[0]!.holds + locks[1]!.holds > 0, 'the contended stream was decided under the lock')
  const events = await stores[0]!.readStream(stream)
  t.equal(events.length, COMMANDS + 2, 'created + first key + every key, none lost')
})
