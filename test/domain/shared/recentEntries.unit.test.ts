// Recent entries: against a plain ordered map as the model, any run of adds and updates keeps the
// newest entries with their latest values, stays within its limit (by at most one chunk under it),
// never changes a value it was made from, and rebuilds from its own list exactly.
import fc from 'fast-check'
import t from 'tap'
import {
  RECENT_CHUNK,
  type RecentEntries,
  noRecentEntries,
  recentEntriesOf,
  recentGet,
  recentHas,
  recentList,
  withRecentEntry,
} from '../../../domain/shared/recentEntries.js'

const LIMIT = RECENT_CHUNK * 3

t.test('a run of adds keeps the newest keys, their latest values, and the bound', async (t) => {
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1_200 }), fc.integer()), { maxLength: 2_000 }), (writes) => {
        let recent: RecentEntries<number> = noRecentEntries()
        // The model: every key ever written, in first-write order, with its latest value.
        const model = new Map<string, number>()
        for (const [k, v] of writes) {
          const key = `k${k}`
          const before = recent
          const beforeList = [...recentList(before)]
          recent = withRecentEntry(recent, key, v, LIMIT)
          if (!model.has(key) || recentHas(before, key)) model.set(key, v)
          else {
            model.delete(key)
            model.set(key, v)
          }
          if (JSON.stringify([...recentList(before)]) !== JSON.stringify(beforeList)) return false
        }
        const kept = [...recentList(recent)]
        if (recent.size !== kept.length || kept.length > LIMIT) return false
        if (kept.length < Math.min(model.size, LIMIT - RECENT_CHUNK + 1)) return false
        // The kept entries are the model's newest, in order, with the latest values.
        const newest = [...model].slice(model.size - kept.length)
        if (JSON.stringify(kept) !== JSON.stringify(newest)) return false
        for (const [key, value] of kept) if (recentGet(recent, key) !== value) return false
        const rebuilt = recentEntriesOf(kept, LIMIT)
        return JSON.stringify(rebuilt.chunks.map((c) => [...c])) === JSON.stringify(recent.chunks.map((c) => [...c]))
      }),
      { seed: 20261128, numRuns: 200 },
    ),
  )
})

t.test('a known key keeps its place and copies one chunk only', async (t) => {
  let recent: RecentEntries<string> = noRecentEntries()
  for (let i = 0; i < RECENT_CHUNK * 2 + 5; i++) recent = withRecentEntry(recent, `k${i}`, 'first', LIMIT)
  const updated = withRecentEntry(recent, 'k3', 'second', LIMIT)
  t.equal(recentGet(updated, 'k3'), 'second')
  t.equal(recentGet(recent, 'k3'), 'first', 'the value it was made from is unchanged')
  t.equal([...recentList(updated)][3]![0], 'k3', 'in its place')
  t.equal(updated.chunks[1], recent.chunks[1], 'the other chunks are shared')
  t.equal(updated.chunks[2], recent.chunks[2])
})

t.test('the oldest chunk goes whole past the limit; a list past the limit or with a repeat is refused', async (t) => {
  let recent: RecentEntries<boolean> = noRecentEntries()
  for (let i = 0; i <= LIMIT; i++) recent = withRecentEntry(recent, `k${i}`, true, LIMIT)
  t.equal(recent.size, LIMIT + 1 - RECENT_CHUNK)
  t.notOk(recentHas(recent, `k${RECENT_CHUNK - 1}`))
  t.ok(recentHas(recent, `k${RECENT_CHUNK}`))
  t.throws(() => withRecentEntry(noRecentEntries(), 'k', true, RECENT_CHUNK - 1), RangeError)
  t.throws(() => recentEntriesOf([['a', 1] as const, ['a', 2] as const], LIMIT), /repeat/)
  const tooMany = Array.from({ length: LIMIT + 1 }, (_, i) => [`k${i}`, i] as const)
  t.throws(() => recentEntriesOf(tooMany, LIMIT), /more than/)
})
