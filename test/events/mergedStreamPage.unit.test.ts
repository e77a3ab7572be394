// A resource's streams merged into one list (events/history/mergedStreamPage.ts): in position order,
// at most limit + 1 events, each naming where every stream stands after it; the next page starts there,
// and a stream the cursor does not name yet (one that appeared since) is read from its start.
import t from 'tap'
import { readMergedPage } from '../../events/history/mergedStreamPage.js'
import { encodePosition } from '../../events/store/positions.js'
import type { EventStore, RecordedEvent } from '../../events/store/port.js'

/** Events of two streams, interleaved in the log: a0 b0 a1 a2 b1 a3. */
const LOG: [string, number][] = [
  ['a', 0],
  ['b', 0],
  ['a', 1],
  ['a', 2],
  ['b', 1],
  ['a', 3],
]
const recorded: RecordedEvent[] = LOG.map(([stream, revision], i) => ({
  id: `${stream}${revision}`,
  stream: `${stream}-x`,
  revision: BigInt(revision),
  position: encodePosition(1n, BigInt(i + 1)),
  type: 'Test',
  data: {},
  metadata: {},
  recordedAt: new Date(0),
}))
const store: Pick<EventStore, 'readStream' | 'comparePositions'> = {
  readStream: async (stream, options) =>
    recorded.filter((e) => e.stream === stream && e.revision >= (options?.fromRevision ?? 0n)).slice(0, options?.maxCount ?? 1000),
  comparePositions: (x, y) => (x < y ? -1 : x > y ? 1 : 0),
}
const streams = [
  { category: 'a', stream: 'a-x' },
  { category: 'b', stream: 'b-x' },
]

t.test('paged by twos, the merged order comes whole, each event once', async (t) => {
  const seen: string[] = []
  let from = {}
  for (let page = 0; page < 10; page++) {
    const merged = await readMergedPage(store, streams, from, 2)
    t.ok(merged.length <= 3, 'at most limit + 1')
    seen.push(...merged.slice(0, 2).map((m) => m.event.id))
    if (merged.length <= 2) break
    from = merged[1]!.after
  }
  t.same(seen, ['a0', 'b0', 'a1', 'a2', 'b1', 'a3'])
})

t.test('each event names where every stream stands after it', async (t) => {
  const merged = await readMergedPage(store, streams, {}, 10)
  t.same(
    merged.map((m) => m.after),
    [
      { a: 1n, b: 0n },
      { a: 1n, b: 1n },
      { a: 2n, b: 1n },
      { a: 3n, b: 1n },
      { a: 3n, b: 2n },
      { a: 4n, b: 2n },
    ],
  )
  const later = await readMergedPage(store, streams, { a: 4n }, 10)
  t.same(
    later.map((m) => m.event.id),
    ['b0', 'b1'],
    'a stream the cursor does not name is read from its start',
  )
})
