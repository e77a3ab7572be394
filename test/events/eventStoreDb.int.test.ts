// The event store contract on a real EventStoreDB when EVENTSTORE_URL is set (for example
// `esdb://localhost:2113?tls=false`, see docker-compose.yml); the adapter's pure mappings always.
import t from 'tap'
import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client'
import {
  EVENTSTOREDB_LIMITS,
  fromEsdbPosition,
  getEventStoreDbEventStore,
  isStreamNotFound,
  isSystemEventType,
  nextBackoffMs,
  toEsdbEvent,
  toEsdbExpectedRevision,
  toEsdbReadPosition,
  toPortActualRevision,
  toPortError,
  toRecordedEvent,
} from '../../events/store/eventstoredb/index.js'
import { START, WrongExpectedVersionError } from '../../events/store/port.js'
import { comparePositions, encodePosition } from '../../events/store/positions.js'
import { eventStoreContract } from '../contract/eventStoreContract.js'
import { protectedEventStoreContract } from '../contract/protectedEventStoreContract.js'

const url = process.env.EVENTSTORE_URL

t.test(
  'EventStoreDB contract',
  url ? {} : { skip: 'EVENTSTORE_URL not set: no EventStoreDB to run the contract against (docker compose up eventstore)' },
  async (t) => {
    if (url) eventStoreContract(t, () => getEventStoreDbEventStore({ connectionString: url }))
  },
)

t.test(
  'EventStoreDB event codec contract',
  url ? {} : { skip: 'EVENTSTORE_URL not set: no EventStoreDB to run the codec contract against' },
  async (t) => {
    if (url) protectedEventStoreContract(t, () => getEventStoreDbEventStore({ connectionString: url }))
  },
)

t.test('expected revision mapping uses the client constants', async (t) => {
  t.equal(toEsdbExpectedRevision('any'), ANY)
  t.equal(toEsdbExpectedRevision('no_stream'), NO_STREAM)
  t.equal(toEsdbExpectedRevision('stream_exists'), STREAM_EXISTS)
  t.equal(toEsdbExpectedRevision(0n), 0n)
  t.equal(toEsdbExpectedRevision(41n), 41n)
  // -1n is the wire's "no stream"; the port spells that 'no_stream', so a negative is a caller bug.
  t.throws(() => toEsdbExpectedRevision(-1n), RangeError)
})

t.test('positions encode commit/prepare so string order is log order', async (t) => {
  const a = fromEsdbPosition({ commit: 9n, prepare: 9n })
  const b = fromEsdbPosition({ commit: 10n, prepare: 3n })
  const c = fromEsdbPosition({ commit: 10n, prepare: 10n })
  t.equal(a, encodePosition(9n, 9n))
  t.equal(b, '00000000000000000010/00000000000000000003')
  t.ok(comparePositions(a, b) < 0, '9 before 10 although "9" > "1" as text')
  t.ok(comparePositions(b, c) < 0, 'prepare breaks ties')
  t.same(toEsdbReadPosition(b), { commit: 10n, prepare: 3n }, 'round trip')
  t.equal(toEsdbReadPosition(START), 'start')
  t.equal(toEsdbReadPosition(undefined), 'start')
  const max = 18_446_744_073_709_551_615n
  t.same(toEsdbReadPosition(fromEsdbPosition({ commit: max, prepare: max })), { commit: max, prepare: max }, 'full u64 range')
})

t.test("the client's conflict becomes the port's typed error", async (t) => {
  const stream = 'transfer-tfr_1'
  const existing = new EsdbWrongExpectedVersionError(undefined, { streamName: stream, expected: NO_STREAM, current: 0n })
  const mapped = toPortError(existing, stream, 'no_stream')
  t.ok(mapped instanceof WrongExpectedVersionError)
  const error = mapped as WrongExpectedVersionError
  t.equal(error.stream, stream)
  t.equal(error.expected, 'no_stream')
  t.equal(error.actual, 0n)

  const missing = new EsdbWrongExpectedVersionError(undefined, { streamName: stream, expected: 4n, current: NO_STREAM })
  t.equal((toPortError(missing, stream, 4n) as WrongExpectedVersionError).actual, 'no_stream')
  t.equal((toPortError(missing, stream, 4n) as WrongExpectedVersionError).expected, 4n)

  t.equal(toPortActualRevision(-1n), 'no_stream', 'metadata-built errors may say -1')
  t.equal(toPortActualRevision(undefined), 'no_stream')
  t.equal(toPortActualRevision(7n), 7n)

  const other = new Error('unavailable')
  t.equal(toPortError(other, stream, 'any'), other, 'other errors pass through untouched')
  t.ok(isStreamNotFound(new StreamNotFoundError(undefined, stream)))
  t.notOk(isStreamNotFound(other))
})

t.test('recorded events: port events mapped, system and foreign events left out', async (t) => {
  const base = { streamId: 'transfer-tfr_1', revision: 2n, created: new Date(1_700_000_000_000), position: { commit: 500n, prepare: 480n } }
  const json: AllStreamResolvedEvent = {
    event: {
      ...base,
      id: 'b6b8b2a4-0a0e-4a53-9d3c-2c0f5b8b6a01',
      isJson: true,
      type: 'TransferCreated',
      data: { amount: '10.00' },
      metadata: { organizationId: 'org_1' },
    },
  }
  t.same(toRecordedEvent(json), {
    id: 'b6b8b2a4-0a0e-4a53-9d3c-2c0f5b8b6a01',
    stream: 'transfer-tfr_1',
    revision: 2n,
    position: encodePosition(500n, 480n),
    type: 'TransferCreated',
    data: { amount: '10.00' },
    metadata: { organizationId: 'org_1' },
    recordedAt: new Date(1_700_000_000_000),
  })
  const noMetadata: AllStreamResolvedEvent = { event: { ...base, id: 'x', isJson: true, type: 'T', data: {}, metadata: undefined } }
  t.same(toRecordedEvent(noMetadata)?.metadata, {})
  const system: AllStreamResolvedEvent = {
    event: { ...base, id: 'y', isJson: true, type: '$statsCollected', data: {}, metadata: undefined },
  }
  t.equal(toRecordedEvent(system), undefined)
  const binary: AllStreamResolvedEvent = {
    event: { ...base, id: 'z', isJson: false, type: 'Blob', data: new Uint8Array([1]), metadata: undefined },
  }
  t.equal(toRecordedEvent(binary), undefined)
  t.equal(toRecordedEvent({}), undefined, 'no event (unresolved link)')
  t.ok(isSystemEventType('$>'))
  t.notOk(isSystemEventType('TransferCreated'))
})

t.test('new events are JSON events that keep the caller id', async (t) => {
  const data = toEsdbEvent({
    id: '0e6c1f0c-7f39-4c55-8a47-54b0a4f1b6d2',
    type: 'TransferCreated',
    data: { a: 1 },
    metadata: { requestId: 'req_1' },
  })
  t.equal(data.id, '0e6c1f0c-7f39-4c55-8a47-54b0a4f1b6d2')
  t.equal(data.contentType, 'application/json')
  t.equal(data.type, 'TransferCreated')
  t.same(data.data, { a: 1 })
  t.same(data.metadata, { requestId: 'req_1' })
})

t.test('resubscribe backoff doubles from 100 ms and stops at 5 s', async (t) => {
  const delays: number[] = []
  let ms: number = EVENTSTOREDB_LIMITS.minResubscribeMs
  for (let i = 0; i < 9; i++) {
    delays.push(ms)
    ms = nextBackoffMs(ms)
  }
  t.same(delays, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000])
})
