// Issue 24, point 4: the projectors are total. Every registered event type, at its largest allowed
// sizes (each variant) and as seeded random valid instances, is applied by every projector that
// handles it, and stored by the webhook subscriber (its endpoint snapshots, messages and
// deliveries), on a real PostgreSQL: nothing throws. An event its projector cannot take alone comes
// after the events its stream always has before it (eventSequences.ts: the created event first).
// Each sequence runs in a transaction that is rolled back, one by one and (where a projector has
// one) through applyMany. TOTALITY_SEED and TOTALITY_PROJECTOR_RUNS replay another run.
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import type { Kysely } from 'kysely'
import t from 'tap'
import { isKnownEventType, parseCurrentEventData } from '../../events/catalog.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'
import { allProjectors } from '../../projections/allProjectors.js'
import type { ProjectionContext } from '../../projections/runtime/projector.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { publicEventMappers } from '../../webhooks/publicEventMappers.js'
import { storeBatch } from '../../webhooks/subscriber/storeBatch.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'
import { SEQUENCES, type SequencedEvent, arbitrarySequence, largestSequences } from '../events/generators/eventSequences.js'
import { EVENT_TYPES } from '../events/generators/eventValues.js'

const SEED = Number(process.env.TOTALITY_SEED ?? 20_261_124)
const RUNS_PER_TYPE = Number(process.env.TOTALITY_PROJECTOR_RUNS ?? 6)
t.comment(`seed ${SEED}, ${RUNS_PER_TYPE} random sequences per type (TOTALITY_SEED, TOTALITY_PROJECTOR_RUNS)`)

const ORGANIZATION_ID = 'org_0000000000zzzzzzzzzzzzzzzz'
const db = await projectionDatabase(t)
const firstProjector = allProjectors[0]
if (!firstProjector) throw new Error('no projector registered')
const ctx: ProjectionContext = { protection: projectorSpec(db, firstProjector).protection }

let commit = 0n
/** The sequence as the consumer runtime hands it over: parsed by the catalog, in commit order. */
function recorded(sequence: SequencedEvent[]): RecordedEvent[] {
  commit += 1n
  return sequence.map((e, i) => ({
    id: randomUUID(),
    stream: 'totality-1',
    revision: BigInt(i),
    position: encodePosition(commit, BigInt(i)),
    type: e.type,
    data: parseCurrentEventData(e),
    metadata: { organizationId: ORGANIZATION_ID },
    recordedAt: new Date('2026-11-24T08:00:00.000Z'),
  }))
}

class RolledBack extends Error {}

/** Applies the events with every projector and the subscriber, then rolls back; throws what failed, named. */
async function project(trx: Kysely<ReadDatabase>, events: RecordedEvent[], bulk: boolean): Promise<void> {
  for (const projector of allProjectors) {
    const handled = events.filter((e) => projector.handles.has(e.type))
    try {
      if (bulk && projector.applyMany) await projector.applyMany(trx, handled, ctx)
      else for (const event of handled) await projector.apply(trx, event, ctx)
    } catch (error) {
      throw new Error(`${projector.name} on ${handled.map((e) => e.type).join(', ')}: ${(error as Error).message}`, { cause: error })
    }
  }
  try {
    await storeBatch(trx, events, { mappers: publicEventMappers, schedule: [0], protection: ctx.protection })
  } catch (error) {
    throw new Error(`the webhook subscriber on ${events.map((e) => e.type).join(', ')}: ${(error as Error).message}`, { cause: error })
  }
}

async function applyRolledBack(sequence: SequencedEvent[], bulk: boolean): Promise<void> {
  const events = recorded(sequence)
  try {
    await db.transaction().execute(async (trx) => {
      await project(trx, events, bulk)
      throw new RolledBack()
    })
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error
  }
}

t.test('every registered event type has a sequence', async (t) => {
  for (const type of EVENT_TYPES) t.ok(SEQUENCES[type], `${type}: its earlier events are stated`)
  const stale = Object.keys(SEQUENCES).filter((type) => !isKnownEventType(type))
  if (stale.length > 0) t.comment(`sequences of types no longer registered: ${stale.join(', ')}`)
})

t.test('the largest instance of every type, each variant, is projected and stored', async (t) => {
  for (const type of EVENT_TYPES) {
    const sequences = largestSequences(type)
    for (const [i, sequence] of sequences.entries()) {
      // applyMany only where a projector of these events has one (the rest apply one by one either way).
      const bulky = allProjectors.some((p) => p.applyMany && sequence.some((e) => p.handles.has(e.type)))
      for (const bulk of bulky ? [false, true] : [false]) {
        const what = `${type} (variant ${i + 1} of ${sequences.length}${bulk ? ', applyMany' : ''})`
        await t.resolves(applyRolledBack(sequence, bulk), what)
      }
    }
  }
})

t.test('seeded random sequences of every type are projected and stored', async (t) => {
  for (const type of EVENT_TYPES) {
    const property = fc.asyncProperty(arbitrarySequence(type), fc.boolean(), (sequence, bulk) => applyRolledBack(sequence, bulk))
    const run = await fc.check(property, { seed: SEED, numRuns: RUNS_PER_TYPE })
    const failure = run.failed ? `: ${String(run.errorInstance)} (after ${run.numRuns} runs, shrunk ${run.numShrinks} times)` : ''
    t.notOk(run.failed, `${type}: ${RUNS_PER_TYPE} random sequences${failure}`, { counterexample: run.counterexample })
  }
})
