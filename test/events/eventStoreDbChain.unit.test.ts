// The EventStoreDB adapter's half of the hash chain, without a server (the contract suite covers the
// adapter when EVENTSTORE_URL is set): links computed before an append, after the stream's last event,
// read back apart from the caller's metadata, check with the same verifier as Postgres's.
import t from 'tap'
import { chainVerifier } from '../../events/integrity/chainVerifier.js'
import { chainEvents, splitChain } from '../../events/store/eventstoredb/chainMetadata.js'
import type { NewEvent, Position, RecordedEvent } from '../../events/store/port.js'

const stream = 'test-chain'
const ev = (i: number): NewEvent => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  type: 'T',
  data: { i },
  metadata: { organizationId: 'org_1' },
})

/** What a read gives back for a chained event stored at `revision`. */
function readBack(event: NewEvent, revision: bigint): RecordedEvent {
  const { metadata, chain } = splitChain(event.metadata as Record<string, unknown>)
  return {
    id: event.id,
    stream,
    revision,
    position: `p${revision}` as Position,
    type: event.type,
    data: event.data,
    metadata,
    recordedAt: new Date(chain!.at),
    hash: chain!.hash,
  }
}

t.test('links made in two appends verify, and the metadata reads back as given', async (t) => {
  const first = chainEvents(stream, [ev(0), ev(1)], undefined, new Date('2026-11-29T10:00:00.123Z'))
  const firstRead = first.map((e, i) => readBack(e, BigInt(i)))
  const tail = { revision: 1n, hash: firstRead[1]!.hash!, eventId: first[1]!.id }
  const second = chainEvents(stream, [ev(2)], tail, new Date('2026-11-29T10:00:01.000Z'))
  const all = [...firstRead, readBack(second[0]!, 2n)]
  t.same(
    all.map((e) => e.metadata),
    [{ organizationId: 'org_1' }, { organizationId: 'org_1' }, { organizationId: 'org_1' }],
  )
  const verifier = chainVerifier()
  for (const e of all) verifier.add(e)
  t.match(verifier.report(), { consistent: true, verified: 3 })

  const altered = chainVerifier()
  for (const e of all) altered.add(e.revision === 1n ? { ...e, data: { i: 99 } } : e)
  t.match(altered.report().problems, [{ kind: 'altered', revision: '1' }], 'an altered event is named')
})

t.test('a malformed link reads as none, and never leaks into the metadata', async (t) => {
  for (const chain of [{ hash: 'x', at: '2026-11-29T10:00:00.000Z' }, { hash: 'a'.repeat(64), at: 'never' }, 'text', null]) {
    const split = splitChain({ organizationId: 'org_1', chain })
    t.same(split, { metadata: { organizationId: 'org_1' }, chain: undefined })
  }
})
