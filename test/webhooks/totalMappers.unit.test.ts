// Issue 24, point 4: the public-event mappers are total. Every registered event type, at its largest
// allowed sizes (one instance per variant) and as seeded random valid instances, goes through what
// the webhook subscriber runs for it (its type's mapper, the envelope, the tags: newMessageOf, and the
// lag count's subscriberHandles): nothing throws, and a message keeps the limits (at most 20 tags of
// at most 128 characters, at most 1 MiB). TOTALITY_SEED and TOTALITY_RUNS replay another run.
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import t from 'tap'
import { isKnownEventType } from '../../events/catalog.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'
import { WEBHOOK_LIMITS } from '../../webhooks/limits.js'
import { publicEventMappers } from '../../webhooks/publicEventMappers.js'
import { subscriberHandles } from '../../webhooks/subscriber/handledEvents.js'
import { newMessageOf } from '../../webhooks/subscriber/newMessage.js'
import { EVENT_TYPES, type EventData, eventValuesOf } from '../events/generators/eventValues.js'

const SEED = Number(process.env.TOTALITY_SEED ?? 20_261_124)
const RUNS_PER_TYPE = Number(process.env.TOTALITY_RUNS ?? 60)
t.comment(`seed ${SEED}, ${RUNS_PER_TYPE} random instances per type (TOTALITY_SEED, TOTALITY_RUNS)`)

const ORGANIZATION_ID = 'org_0000000000zzzzzzzzzzzzzzzz'

const recorded = (type: string, data: EventData): RecordedEvent => ({
  id: randomUUID(),
  stream: 'totality-1',
  revision: 0n,
  position: encodePosition(1n, 0n),
  type,
  data,
  metadata: { organizationId: ORGANIZATION_ID },
  recordedAt: new Date('2026-11-24T08:00:00.000Z'),
})

/** Largest body seen per public type, for the comment at the end. */
const largestBody = new Map<string, number>()

/** What the subscriber would store for the event; throws with the reason a limit is broken. */
function messageFor(type: string, data: EventData): void {
  const event = recorded(type, data)
  subscriberHandles(publicEventMappers, event)
  const message = newMessageOf(publicEventMappers, event)
  if (!message) return
  const bytes = Buffer.byteLength(message.body)
  largestBody.set(message.eventType, Math.max(largestBody.get(message.eventType) ?? 0, bytes))
  if (message.tags.length > WEBHOOK_LIMITS.maxTagsPerMessage) throw new Error(`${message.tags.length} tags`)
  const long = message.tags.find((tag) => tag.length === 0 || tag.length > WEBHOOK_LIMITS.tagMaxLength)
  if (long !== undefined) throw new Error(`a tag of ${long.length} characters`)
  if (bytes > WEBHOOK_LIMITS.maxMessageBytes) throw new Error(`a body of ${bytes} bytes`)
  const envelope: unknown = JSON.parse(message.body)
  if (typeof envelope !== 'object' || envelope === null || !('data' in envelope)) throw new Error('a body without data')
}

t.test('the generator covers every registered event type', async (t) => {
  t.ok(EVENT_TYPES.length > 0)
  for (const type of EVENT_TYPES) {
    t.ok(isKnownEventType(type), type)
    t.doesNotThrow(() => eventValuesOf(type), `${type}: largest and random values`)
  }
})

t.test('the largest instance of every type, each variant, maps within the limits', async (t) => {
  for (const type of EVENT_TYPES) {
    const { largest } = eventValuesOf(type)
    largest.forEach((data, variant) =>
      t.doesNotThrow(() => messageFor(type, data), `${type} (variant ${variant + 1} of ${largest.length})`),
    )
  }
})

t.test('seeded random instances of every type map within the limits', async (t) => {
  for (const type of EVENT_TYPES) {
    const { arbitrary } = eventValuesOf(type)
    t.doesNotThrow(
      () =>
        fc.assert(
          fc.property(arbitrary, (data) => messageFor(type, data)),
          { seed: SEED, numRuns: RUNS_PER_TYPE },
        ),
      `${type}: ${RUNS_PER_TYPE} random instances`,
    )
  }
  const sizes = [...largestBody].sort(([a], [b]) => a.localeCompare(b)).map(([type, bytes]) => `${type} ${bytes}`)
  t.comment(`largest body per public type (bytes, limit ${WEBHOOK_LIMITS.maxMessageBytes}): ${sizes.join(', ')}`)
})
