// The chain verifier on chains built in memory: given events as a store (or an export) would hand
// them over, in commit order or in one stream's revision order, it names each kind of tamper once, at
// the event an auditor should look at, and counts what it cannot check.
import t from 'tap'
import { CHAIN_VERIFY_LIMITS, type ChainReport, chainVerifier } from '../../events/integrity/chainVerifier.js'
import { contentHashOf, eventHashOf } from '../../events/integrity/eventHash.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'

const at = new Date('2026-11-29T10:00:00.000Z')

/** A stream of `count` chained events at global positions start, start + step, ... */
function chain(stream: string, count: number, start = 1, step = 1): RecordedEvent[] {
  const events: RecordedEvent[] = []
  let previousHash: string | null = null
  for (let i = 0; i < count; i++) {
    const e = { id: `${stream}-${i}`, stream, type: 'T', data: { i }, metadata: { organizationId: 'org_1' } }
    const revision = BigInt(i)
    const hash = eventHashOf({ contentHash: contentHashOf(e), previousHash, recordedAt: at.toISOString(), revision })
    events.push({ ...e, revision, position: encodePosition(1n, BigInt(start + i * step)), recordedAt: at, hash })
    previousHash = hash
  }
  return events
}

const verify = (events: RecordedEvent[]): ChainReport => {
  const verifier = chainVerifier()
  for (const e of events) verifier.add(e)
  return verifier.report()
}
const byPosition = (events: RecordedEvent[]) => [...events].sort((a, b) => (a.position < b.position ? -1 : 1))
const withRevision = (e: RecordedEvent, revision: bigint): RecordedEvent => ({ ...e, revision })

t.test('untouched streams, interleaved in commit order, verify whole', async (t) => {
  const events = byPosition([...chain('a', 5, 1, 2), ...chain('b', 5, 2, 2)])
  t.match(verify(events), { consistent: true, events: 10, streams: 2, verified: 10, beforeChain: 0, problems: [] })
})

t.test('an altered event is named once; its successor still links to its stored hash', async (t) => {
  const events = chain('a', 4)
  events[1] = { ...events[1]!, data: { i: 100 } }
  t.match(verify(events), { consistent: false, problemCount: 1, problems: [{ kind: 'altered', revision: '1', eventId: 'a-1' }] })
  const moved = chain('a', 2).map((e, i) => (i === 1 ? { ...e, recordedAt: new Date(at.getTime() + 1) } : e))
  t.match(verify(moved).problems, [{ kind: 'altered', revision: '1' }], 'its time is hashed too')
})

t.test('deleted events are named missing, from the first of the gap', async (t) => {
  const events = chain('a', 6)
  t.match(verify([events[0]!, events[3]!, events[4]!, events[5]!]), {
    problemCount: 1,
    problems: [{ kind: 'missing', revision: '1', detail: 'revisions 1 to 2 are missing' }],
  })
  t.match(verify(events.slice(1)).problems, [{ kind: 'missing', revision: '0' }], 'a stream must start at revision 0')
})

t.test('two events swapped are named reordered, read in commit order or by revision', async (t) => {
  const [e0, e1, e2, e3] = chain('a', 4)
  const swapped = [e0!, withRevision(e1!, 2n), withRevision(e2!, 1n), e3!]
  // Commit order: revision 2 comes first (a gap), then revision 1 fills it.
  t.match(verify(swapped), { problemCount: 1, problems: [{ kind: 'reordered', revision: '1', eventId: 'a-2' }] })
  // Revision order (one stream): revision 1 is the event stored later, and revision 2's position lies before it.
  const byRevision = [e0!, withRevision(e2!, 1n), withRevision(e1!, 2n), e3!]
  t.match(verify(byRevision), { problemCount: 1, problems: [{ kind: 'reordered', revision: '1', eventId: 'a-2' }] })
})

t.test('a revision stored twice is named reordered', async (t) => {
  const [e0, e1] = chain('a', 2)
  t.match(verify([e0!, e1!, { ...withRevision(e1!, 1n), id: 'again', position: encodePosition(1n, 99n) }]).problems, [
    { kind: 'reordered', revision: '1', eventId: 'again' },
  ])
})

t.test('events without a hash: before the chain at a stream start, unchained after it', async (t) => {
  const legacy = chain('old', 2).map(({ hash: _h, ...e }) => e)
  t.match(verify(legacy), { consistent: true, beforeChain: 2, verified: 0 })
  const events = chain('a', 3)
  const { hash: _gone, ...stripped } = events[2]!
  t.match(verify([events[0]!, events[1]!, stripped]).problems, [{ kind: 'unchained', revision: '2', eventId: 'a-2' }])
})

t.test('the report keeps the first problems and counts the rest', async (t) => {
  const events = chain('a', CHAIN_VERIFY_LIMITS.maxProblems + 20).map((e) => ({ ...e, data: { altered: true } }))
  const report = verify(events)
  t.equal(report.problemCount, CHAIN_VERIFY_LIMITS.maxProblems + 20)
  t.equal(report.problems.length, CHAIN_VERIFY_LIMITS.maxProblems)
  t.equal(report.problems[0]!.revision, '0', 'the first one first')
})
