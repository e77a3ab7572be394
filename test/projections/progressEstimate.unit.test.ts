// A rebuild's progress figures: the share of the log read from positions, the rate over the last reports,
// the total and the time left; and the progress lines a person reads, at most one a second.
import t from 'tap'
import { encodePosition, logShare } from '../../events/store/positions.js'
import { START } from '../../events/store/port.js'
import { PROGRESS_LIMITS, addSample, estimateProgress } from '../../projections/runtime/progressEstimate.js'
import { duration, progressLines } from '../../cli/progressLines.js'
import type { EventStore } from '../../events/store/port.js'
import type { Output } from '../../cli/output.js'

const at = (n: number) => encodePosition(700n + BigInt(n % 3), BigInt(n))

t.test('logShare: from the minor parts, between the start and the head', async (t) => {
  t.equal(logShare(START, at(250), at(1000)), 0.25)
  t.equal(logShare(at(500), at(750), at(1000)), 0.5, 'from a position: the share of what was left')
  t.equal(logShare(START, at(1200), at(1000)), 1, 'never above 1 (the head read before the position)')
  t.equal(logShare(at(1000), at(1000), at(1000)), undefined, 'nothing to read')
})

t.test('estimateProgress: recent rate, total, time left', async (t) => {
  t.same(estimateProgress([], 0.5), { eventsPerSecond: 0 })
  const samples = [
    { atMs: 0, events: 0 },
    { atMs: 2_000, events: 60_000 },
  ]
  t.same(estimateProgress(samples, 0.25), { eventsPerSecond: 30_000, estimatedTotal: 240_000, percent: 25, secondsLeft: 6 })
  t.same(estimateProgress(samples, undefined), { eventsPerSecond: 30_000 }, 'no total without a share')
  t.equal(estimateProgress(samples, 1)?.estimatedTotal, 60_000, 'never below what was read')
  let kept = [{ atMs: 0, events: 0 }]
  // 1 000 events a second for 39 seconds, then 5 000 a second.
  for (let i = 1; i <= 50; i++) kept = addSample(kept, { atMs: i * 1000, events: i < 40 ? i * 1000 : 39_000 + (i - 39) * 5000 })
  t.equal(kept.length, PROGRESS_LIMITS.window + 1, 'a bounded window')
  t.equal(estimateProgress(kept, undefined).eventsPerSecond, 5_000, 'the rate of the last seconds, not the average since the start')
})

t.test('duration', async (t) => {
  t.equal(duration(3.21), '3.2 s')
  t.equal(duration(42.4), '42 s')
  t.equal(duration(125), '2 min 5 s')
  t.equal(duration(3 * 3600 + 120), '3 h 2 min')
})

t.test('progress lines: one a second, one when the switch starts; JSON with --json', async (t) => {
  let now = 0
  const written: string[] = []
  const out: Output = {
    document: async () => undefined,
    line: async () => undefined,
    text: async () => undefined,
    progress: async (s) => void written.push(s),
  }
  const head = { id: 'x', type: 'X', position: at(100_000), recordedAt: new Date() }
  const store = { readHead: async () => head } as Pick<EventStore, 'readHead'> as EventStore
  const lines = progressLines({ operation: 'rebuild', store, out, json: false, nowMs: () => now })
  const progress = (events: number, phase: 'build' | 'switch' = 'build') =>
    lines({ projection: 'webhook_endpoints', phase, events, from: START, position: at(events) })
  for (let i = 1; i <= 25; i++) {
    now = i * 100
    await progress(i * 1_000)
  }
  await progress(25_000, 'switch')
  t.same(written, [
    'rebuild webhook_endpoints: build, 1,000 of ~100,000 events (1%), 10,000 events/s, ~9.9 s left',
    'rebuild webhook_endpoints: build, 11,000 of ~100,000 events (11%), 10,000 events/s, ~8.9 s left',
    'rebuild webhook_endpoints: build, 21,000 of ~100,000 events (21%), 10,000 events/s, ~7.9 s left',
    'rebuild webhook_endpoints: 25,000 events read; switching (the last events under the lock, then the tables)',
  ])
  written.length = 0
  const json = progressLines({ operation: 'rollback', store, out, json: true, nowMs: () => now })
  now += 1000
  await json({ projection: 'customers', phase: 'catch-up', events: 50_000, from: START, position: at(50_000) })
  t.same(JSON.parse(written[0]!), {
    progress: {
      operation: 'rollback',
      projection: 'customers',
      phase: 'catch-up',
      events: 50_000,
      position: at(50_000),
      eventsPerSecond: 50_000,
      estimatedTotal: 100_000,
      percent: 50,
      secondsLeft: 1,
    },
  })
})
