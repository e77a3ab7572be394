// An archived customer is erased by the scheduler once CUSTOMER_DATA_RETENTION_DAYS have passed
// since its archive. The retention (default 1826 days, at least one) is not shortened here: the
// scheduler's clock is stepped past the due time instead. Also across a restart: an archive and an
// erasure appended while no workflow ran (a process that died right after its append) are timed
// and shredded by a runtime opened afterwards on the same database.
import t from 'tap'
import { retentionDueAt, retentionTimerId } from '../../commands/customers/retentionErasure.js'
import { SCHEDULER_ACTOR, runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import { ERASED } from '../../domain/shared/sensitive/index.js'
import type { EventStore, RecordedEvent } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { type Runtime, openRuntime } from '../../server/runtime.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from './fixtures.js'

const h = await startTestApp(t)
const RETENTION_DAYS = h.runtime.config.CUSTOMER_DATA_RETENTION_DAYS
const PHONE = '+14155550123'
const log = { error: (obj: object, msg: string) => t.fail(msg, obj) }
const quiet = { info: () => undefined, error: () => undefined }

const streamOf = (store: EventStore, id: string) => store.readStream(streams.customer(id))
const timerOf = (id: string) =>
  h.runtime.schedulerDb.selectFrom('scheduled_commands').selectAll().where('id', '=', retentionTimerId(id)).executeTakeFirst()

async function head(store: EventStore): Promise<RecordedEvent | undefined> {
  let last: RecordedEvent | undefined
  for (;;) {
    const page = await store.readAll({ from: last?.position, maxCount: 1_000 })
    if (page.length === 0) return last
    last = page.at(-1)
  }
}

async function archivedAtOf(store: EventStore, id: string): Promise<string> {
  const archived = (await streamOf(store, id)).find((e) => e.type === 'CustomerArchived')
  if (typeof archived?.data.archivedAt !== 'string') throw new Error(`customer ${id} is not archived`)
  return archived.data.archivedAt
}

t.test('archived: erased by the scheduler at archivedAt + retention, exactly once', async (t) => {
  const c = await createIndividual(h, { phone: PHONE })
  t.equal((await h.request({ method: 'POST', url: `/v1/customers/${c.id}/archive` })).statusCode, 200)
  // The archive's answer waited for the workflows' group, the timer consumers included.
  const timer = await timerOf(c.id)
  const due = retentionDueAt(await archivedAtOf(h.runtime.store, c.id), RETENTION_DAYS)
  t.equal(timer?.due_at.toISOString(), due.toISOString(), `due ${RETENTION_DAYS} days after the archive`)
  t.match(timer?.command, { type: 'EraseCustomerData', customerId: c.id, trigger: 'RETENTION' })

  const at = (ms: number) => () => new Date(due.getTime() + ms)
  t.equal(
    (await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: at(-1_000) })).fired,
    0,
    'not due yet',
  )
  t.equal((await h.runtime.protection.keys.keyForReading(c.id)).state, 'active', 'the key is still there')
  t.equal(
    (await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: at(1_000) })).fired,
    1,
    'fired when due',
  )
  t.ok(await h.runtime.runner.waitFor((await head(h.runtime.store))?.position, 15_000, ['CustomerDataErased']), 'workflows caught up')

  t.equal((await h.runtime.protection.keys.keyForReading(c.id)).state, 'shredded', 'the workflow shredded the key')
  const events = await streamOf(h.runtime.store, c.id)
  const erased = events.filter((e) => e.type === 'CustomerDataErased')
  t.equal(erased.length, 1)
  t.match(erased[0], {
    data: { trigger: 'RETENTION', erasedBy: SCHEDULER_ACTOR, erasedAt: new Date(due.getTime() + 1_000).toISOString() },
    metadata: { commandId: retentionTimerId(c.id), actor: SCHEDULER_ACTOR },
  })
  t.equal(events[0]?.data.phone, ERASED, 'the creation opens as ERASED')
  const read = await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })
  t.equal(read.statusCode, 200)
  t.match(read.json(), { status: 'ARCHIVED', phone: ERASED })
  t.equal(
    (await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: at(60_000) })).fired,
    0,
    'never twice',
  )
  t.notOk(await timerOf(c.id), 'the fired timer is gone')
})

t.test('across a restart: what was appended while no workflow ran is timed and shredded by the next runtime', async (t) => {
  const archivedLater = await createIndividual(h, { phone: PHONE })
  const erasedLater = await createIndividual(h, { phone: PHONE })
  const { organizationId } = h.org
  // This process's workflows stop, as if it died right after the appends below.
  await h.runtime.runner.workflows.stop()
  const now = new Date().toISOString()
  const origin = { organizationId, requestId: 'req_dead_process', actor: 'test' }
  await h.runtime.commands.handle(
    customerDecider,
    streams.customer(archivedLater.id),
    { type: 'ArchiveCustomer', organizationId, customerId: archivedLater.id, now },
    origin,
  )
  await h.runtime.commands.handle(
    customerDecider,
    streams.customer(erasedLater.id),
    {
      type: 'EraseCustomerData',
      organizationId,
      customerId: erasedLater.id,
      now,
      trigger: 'OPERATOR',
      erasedBy: 'alice',
      reason: 'asked',
    },
    origin,
  )
  t.notOk(await timerOf(archivedLater.id), 'no timer yet')
  t.equal(
    (await h.runtime.protection.keys.keyForReading(erasedLater.id)).state,
    'active',
    'the erasure is recorded, the key not yet shredded',
  )

  // The next process: a runtime of its own on the same database; only its workflows' group runs.
  const next: Runtime = await openRuntime(h.runtime.config, quiet, { poolSize: 4 })
  t.teardown(() => next.close())
  await next.runner.workflows.start()
  t.ok(await next.runner.workflows.waitFor((await head(next.store))?.position, 15_000), 'the next runtime caught up')
  t.equal(
    (await next.protection.keys.keyForReading(erasedLater.id)).state,
    'shredded',
    'the erasure recorded before the restart is shredded',
  )
  const timer = await timerOf(archivedLater.id)
  t.equal(timer?.due_at.toISOString(), retentionDueAt(now, RETENTION_DAYS).toISOString(), 'the archive before the restart got its timer')

  const after = () => new Date(retentionDueAt(now, RETENTION_DAYS).getTime() + 1_000)
  t.equal((await runDueCommands({ db: next.schedulerDb, commands: next.commands, log, clock: after })).fired, 1)
  t.ok(await next.runner.workflows.waitFor((await head(next.store))?.position, 15_000), 'caught up with the erasure')
  t.equal((await next.protection.keys.keyForReading(archivedLater.id)).state, 'shredded', 'erased when its retention ended')
  t.equal((await streamOf(next.store, archivedLater.id))[0]?.data.phone, ERASED)
  await next.runner.workflows.stop()
})
