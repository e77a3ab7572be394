// The command runtime on a real store: decide against the stream, retry on a concurrent write,
// and the new-stream fast path falling back when the stream already exists.
import t from 'tap'
import { createCommandRuntime } from '../../../commands/runtime/commandRuntime.js'
import { DomainError } from '../../../domain/errors.js'
import { organizationDecider } from '../../../domain/organization/decider.js'
import { getPostgresEventStore } from '../../../events/store/postgres/index.js'
import { createTestDatabase } from '../../harness/testDatabase.js'

const store = await getPostgresEventStore({ connectionString: await createTestDatabase(t) })
t.teardown(() => store.close())
const commands = createCommandRuntime({ store })
const context = { organizationId: 'org_x', requestId: 'req_1', actor: 'key_1', idempotencyKey: 'idem-1' }
const now = new Date().toISOString()

t.test('metadata on every event, and the fast path refuses an existing stream through the decider', async (t) => {
  const create = { type: 'CreateOrganization' as const, organizationId: 'org_x', name: 'X', now }
  const first = await commands.handle(organizationDecider, 'organization-org_x', create, context, { newStream: true })
  t.ok(first.position)
  const [event] = await store.readStream('organization-org_x')
  t.same(event!.metadata, {
    organizationId: 'org_x',
    requestId: 'req_1',
    actor: 'key_1',
    idempotencyKey: 'idem-1',
    causationId: 'req_1',
    correlationId: 'req_1',
  })
  const again = await commands
    .handle(organizationDecider, 'organization-org_x', create, context, { newStream: true })
    .catch((e: unknown) => e)
  t.ok(again instanceof DomainError && again.code === 'resource_already_exists', 'falls back, then the decider refuses')
  t.equal((await store.readStream('organization-org_x')).length, 1)
})

t.test('concurrent commands on one aggregate all land, each decided on fresh state', async (t) => {
  const keys = Array.from({ length: 4 }, (_, i) => ({
    type: 'CreateApiKey' as const,
    organizationId: 'org_x',
    keyId: `key_${i}`,
    environment: 'sandbox' as const,
    keyHash: String(i)
      .repeat(64)
      .slice(0, 64)
      .replace(/[^0-9a-f]/g, 'a'),
    last4: 'abcd',
    now,
  }))
  const results = await Promise.all(keys.map((k) => commands.handle(organizationDecider, 'organization-org_x', k, context)))
  t.equal(results.length, 4, 'within COMMAND_LIMITS.maxAttempts (5), every writer lands')
  const events = await store.readStream('organization-org_x')
  t.equal(events.length, 5, 'created + 4 keys, none lost to a conflict')
  t.same(
    events.map((e) => Number(e.revision)),
    [0, 1, 2, 3, 4],
  )
})

t.test('a command with a deterministic id runs once per stream, however often it is issued', async (t) => {
  const key = {
    type: 'CreateApiKey' as const,
    organizationId: 'org_x',
    keyId: 'key_once',
    environment: 'sandbox' as const,
    keyHash: 'b'.repeat(64),
    last4: 'bbbb',
    now,
  }
  const before = (await store.readStream('organization-org_x')).length
  const withId = { ...context, commandId: 'cmd_key_once' }
  const first = await commands.handle(organizationDecider, 'organization-org_x', key, withId)
  t.equal(first.events.length, 1)
  // Issued again (a replayed workflow, a timer fired twice): found on the stream, nothing appended,
  // even though the decider would have refused it.
  const results = await Promise.all([1, 2, 3].map(() => commands.handle(organizationDecider, 'organization-org_x', key, withId)))
  t.same(
    results.map((r) => r.events.length),
    [0, 0, 0],
  )
  const events = await store.readStream('organization-org_x')
  t.equal(events.length, before + 1)
  t.equal(events.at(-1)!.metadata.commandId, 'cmd_key_once')
})
