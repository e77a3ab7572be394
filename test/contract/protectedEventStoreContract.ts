// The event codec's contract, run on each adapter (Postgres always, EventStoreDB when configured):
// sensitive fields reach the adapter sealed and come back plain through every read; sealed text
// cannot move to another record; a shredded subject reads as ERASED (old plain events too) and
// can no longer be written; events stored before encryption read as stored.
import { randomBytes, randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { ERASED } from '../../domain/shared/sensitive/index.js'
import { parseEventData } from '../../events/catalog.js'
import { SubjectErasedError, postgresDataKeyStore } from '../../events/protection/dataKeys.js'
import { dataProtection } from '../../events/protection/dataProtection.js'
import { eventCodec } from '../../events/protection/eventCodec.js'
import { CiphertextError } from '../../events/protection/fieldCipher.js'
import { localKeyManagement } from '../../events/protection/localKeyManagement.js'
import { kekIdOf } from '../../events/protection/localKeySource.js'
import { protectedEventStore } from '../../events/protection/protectedEventStore.js'
import { openDataKeyDatabase } from '../../events/protection/tables.js'
import type { EventStore, NewEvent, RecordedEvent } from '../../events/store/port.js'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { collect } from './eventStoreContract.js'

const PHONE = '+14155550123'

function customerCreated(customerId: string, phone: string | null): NewEvent {
  return {
    id: randomUUID(),
    type: 'CustomerCreated',
    data: {
      customerId,
      organizationId: 'org_contract',
      type: 'INDIVIDUAL',
      customerName: 'Ada Lovelace',
      email: 'ada@example.com',
      phone,
      countryCode: 'US',
      metadata: {},
      firstName: 'Ada',
      lastName: 'Lovelace',
      createdAt: new Date().toISOString(),
    },
    metadata: { organizationId: 'org_contract' },
  }
}

const newCustomerId = () => `cus_${randomBytes(13).toString('hex').slice(0, 26)}`

export function protectedEventStoreContract(t: Test, open: () => Promise<EventStore>): void {
  let raw: EventStore
  let store: EventStore
  let protection: ReturnType<typeof dataProtection>
  t.before(async () => {
    const { db, pool } = openReadDatabase(await createTestDatabase(t), 2)
    t.teardown(() => db.destroy())
    await migrateToLatest(db)
    const kek = randomBytes(32)
    protection = dataProtection(
      postgresDataKeyStore(
        openDataKeyDatabase(pool),
        localKeyManagement({ keks: new Map([[kekIdOf(kek), kek]]), currentKekId: kekIdOf(kek) }),
      ),
    )
    raw = await open()
    store = protectedEventStore(raw, eventCodec(protection))
  })
  t.teardown(async () => raw?.close())

  const stored = async (stream: string): Promise<RecordedEvent> => (await raw.readStream(stream))[0]!

  /**
   * The stream's first event as $all shows it. A gap-safe read hides what follows a transaction still
   * running, and the test cluster's other databases run theirs too (each test file has its own): it
   * shows up once they end, so the read is retried for a bounded time.
   */
  async function readAllUntil(s: EventStore, stream: string): Promise<RecordedEvent | undefined> {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
      const found = (await s.readAll({ maxCount: 10_000 })).find((e) => e.stream === stream)
      if (found) return found
    }
    return undefined
  }

  t.test('a sensitive field reaches the adapter sealed and every read opens it', async (t) => {
    const id = newCustomerId()
    const stream = `customer-${id}`
    const { position } = await store.appendToStream(stream, [customerCreated(id, PHONE)], { expectedRevision: 'no_stream' })
    const kept = await stored(stream)
    t.not(kept.data.phone, PHONE, 'the adapter never holds the plain value')
    t.match(kept.data.phone, /^enc1\./)
    t.equal(kept.metadata.dataSubject, id, 'the sealing subject is named')
    t.notMatch(JSON.stringify({ data: kept.data, metadata: kept.metadata }), PHONE)
    t.equal((await store.readStream(stream))[0]!.data.phone, PHONE, 'readStream opens it')
    t.equal((await readAllUntil(store, stream))?.data.phone, PHONE, 'readAll opens it')
    const seen = await collect(store, undefined, (events) => events.some((e) => e.position === position))
    t.equal(seen.find((e) => e.stream === stream)?.data.phone, PHONE, 'the subscription opens it')
    t.equal(kept.data.email, 'ada@example.com', 'fields not marked sensitive stay as they are')
  })

  t.test('sealed text moved to another record does not open', async (t) => {
    const id = newCustomerId()
    await store.appendToStream(`customer-${id}`, [customerCreated(id, PHONE)])
    const sealed = await stored(`customer-${id}`)
    // Same subject (same key), another stream: the associated data differs.
    const moved = `customer-${newCustomerId()}`
    await raw.appendToStream(moved, [{ id: randomUUID(), type: sealed.type, data: sealed.data, metadata: sealed.metadata }])
    await t.rejects(store.readStream(moved), CiphertextError)
  })

  t.test('once shredded: ERASED on every read, old plain events too, and no new write', async (t) => {
    const id = newCustomerId()
    const stream = `customer-${id}`
    // An event from before encryption (plain, no subject) and a sealed one.
    await raw.appendToStream(stream, [customerCreated(id, '+14155550100')])
    t.equal((await store.readStream(stream))[0]!.data.phone, '+14155550100', 'an event stored before encryption reads as stored')
    await store.appendToStream(stream, [customerCreated(id, PHONE)])
    t.ok(await protection.keys.shred(id, 'contract test'))
    t.notOk(await protection.keys.shred(id, 'again'), 'a second shred changes nothing')
    const events = await store.readStream(stream)
    t.same(
      events.map((e) => e.data.phone),
      [ERASED, ERASED],
    )
    t.same(parseEventData(events[1]!).phone, ERASED, 'the read schema accepts the marker')
    await t.rejects(store.appendToStream(stream, [customerCreated(id, PHONE)]), SubjectErasedError)
    t.equal((await raw.readStream(stream)).length, 2, 'nothing appended')
  })

  t.test('events with nothing sensitive pass through untouched', async (t) => {
    const id = newCustomerId()
    await store.appendToStream(`customer-${id}`, [customerCreated(id, null)])
    const kept = await stored(`customer-${id}`)
    t.equal(kept.data.phone, null)
    t.equal(kept.metadata.dataSubject, undefined, 'no subject: nothing was sealed')
  })
}
