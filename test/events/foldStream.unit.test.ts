// Folding a stream up to a point (events/history/foldStream.ts): by revision (inclusive) or by time
// (every event recorded at or before it, stopping at the first recorded later), across pages, only for
// the organization of its first event, and never past its bound.
import t from 'tap'
import { type FoldPoint, foldStream } from '../../events/history/foldStream.js'
import { encodePosition } from '../../events/store/positions.js'
import type { EventStore, RecordedEvent } from '../../events/store/port.js'

const at = (second: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, second))
/** Five switches of one organization's agents feature, recorded one second apart from 09:00:00. */
const recorded: RecordedEvent[] = [0, 1, 2, 3, 4].map((n) => ({
  id: `e${n}`,
  stream: 'organization-org_a',
  revision: BigInt(n),
  position: encodePosition(1n, BigInt(n + 1)),
  type: 'AgentsFeatureSet',
  data: { organizationId: 'org_a', enabled: n % 2 === 0, setBy: 'test', at: at(n).toISOString() },
  metadata: { organizationId: 'org_a' },
  recordedAt: at(n),
}))
const reads: number[] = []
const store: Pick<EventStore, 'readStream'> = {
  readStream: async (stream, options) => {
    reads.push(options?.maxCount ?? 0)
    return recorded.filter((e) => e.stream === stream && e.revision >= (options?.fromRevision ?? 0n)).slice(0, options?.maxCount ?? 1000)
  },
}
const small = { maxEvents: 100, pageSize: 2 }
const fold = (point: FoldPoint, organizationId = 'org_a', limits = small, stream = 'organization-org_a') =>
  foldStream<string[]>(store, stream, organizationId, point, [], (ids, event) => [...ids, event.id], limits)

t.test('by revision: the events up to it, in pages, reading no further than needed', async (t) => {
  reads.length = 0
  t.match(await fold({ revision: 2n }), { kind: 'folded', state: ['e0', 'e1', 'e2'], last: { id: 'e2' } })
  t.same(reads, [2, 1], 'two pages: a full one, then the one event left')
  t.match(await fold({ revision: 4n }), { kind: 'folded', state: ['e0', 'e1', 'e2', 'e3', 'e4'] })
  t.same(await fold({ revision: 5n }), { kind: 'revision_out_of_range', lastRevision: 4n })
})

t.test('by time: every event recorded at or before it', async (t) => {
  t.match(await fold({ asOf: at(2) }), { kind: 'folded', state: ['e0', 'e1', 'e2'] }, 'at an event: it is included')
  t.match(await fold({ asOf: new Date(at(2).getTime() + 999) }), { kind: 'folded', state: ['e0', 'e1', 'e2'] })
  t.match(await fold({ asOf: at(60) }), { kind: 'folded', state: ['e0', 'e1', 'e2', 'e3', 'e4'] }, 'after the last: all')
  t.same(await fold({ asOf: new Date(at(0).getTime() - 1) }), { kind: 'not_yet_created', firstRecordedAt: at(0) })
})

t.test('only the organization of its first event; never past the bound', async (t) => {
  t.same(await fold({ revision: 0n }, 'org_b'), { kind: 'not_found' })
  t.same(await fold({ revision: 0n }, 'org_a', small, 'organization-org_none'), { kind: 'not_found' })
  t.same(await fold({ revision: 4n }, 'org_a', { maxEvents: 3, pageSize: 2 }), { kind: 'too_long', maxEvents: 3 })
  t.match(await fold({ revision: 2n }, 'org_a', { maxEvents: 3, pageSize: 2 }), { kind: 'folded' }, 'up to the bound is fine')
})
