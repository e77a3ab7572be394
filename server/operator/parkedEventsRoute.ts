// GET /v1/operator/parked-events: the dead letters (events/consumers/deadLetters.ts): which consumer
// gave up on which event of which stream, why, after how many attempts and when; never the event's
// data. In the order a replay applies them (`projections parked replay`, the CLI, does the replaying).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { countDeadLetters, listDeadLetters } from '../../events/consumers/deadLetters.js'
import { errorResponses } from '../../http/errorBody.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { CONSUMER_NAMES } from '../runtime.js'
import { OPERATOR_TAGS } from './operatorTags.js'

/** Letters one answer lists: the oldest of a long backlog are the ones to act on; the CLI lists every one. */
export const PARKED_EVENTS_LIMITS = { min: 1, max: 1_000, default: 100 } as const

const query = z.object({
  group: z.enum(CONSUMER_NAMES).optional().describe('Only this consumer group’s letters'),
  limit: z.coerce
    .number()
    .int()
    .min(PARKED_EVENTS_LIMITS.min)
    .max(PARKED_EVENTS_LIMITS.max)
    .default(PARKED_EVENTS_LIMITS.default)
    .describe(`Letters to list, ${PARKED_EVENTS_LIMITS.min} to ${PARKED_EVENTS_LIMITS.max}`),
})

const letterSchema = z.object({
  group: z.string(),
  consumer: z.string().describe('The consumer of the group that parked it (a projector, a workflow, the subscriber)'),
  organizationId: z.string().nullable().describe('The tenant whose event it is (null for a deployment event)'),
  stream: z.string(),
  streamRevision: z.string().describe('Its place in its stream (a decimal integer)'),
  eventId: z.string(),
  eventType: z.string(),
  position: z.string().describe('Its place in the whole log (opaque)'),
  reason: z.enum(['failed', 'behind']).describe('failed: it failed itself; behind: it waits behind a failed letter of its stream'),
  failure: z.string().nullable().describe('What failed and where (never the data); null for a letter that waits behind one'),
  attempts: z.number().int(),
  parkedAt: z.string(),
})

const pageSchema = z.object({
  data: z.array(letterSchema),
  total: z.number().int().describe('Letters the deployment holds (of the group, when filtered)'),
  truncated: z.boolean().describe('More letters than listed: `projections parked` lists every one'),
})

export const operatorParkedEventsRoute: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get(
    '/operator/parked-events',
    {
      schema: {
        operationId: 'listOperatorParkedEvents',
        tags: OPERATOR_TAGS,
        summary: 'Dead letters: the events a consumer parked (operator keys only)',
        description:
          'Group, consumer, stream, event id and type, the failure, attempts and when it was parked; never the event’s data. ' +
          'Ordered by group, consumer, stream and position (the order a replay applies them). Every other key is 403 ' +
          'operator_key_required.',
        querystring: query,
        response: { 200: pageSchema, ...errorResponses(403) },
      },
    },
    async (request) => {
      const { group, limit } = request.query
      const [letters, counts] = await Promise.all([listDeadLetters(db, group ? { group } : {}, limit), countDeadLetters(db)])
      const total = counts.filter((c) => group === undefined || c.group === group).reduce((n, c) => n + c.letters, 0)
      return {
        data: letters.map((l) => ({
          group: l.group,
          consumer: l.consumer,
          organizationId: l.organizationId,
          stream: l.stream,
          streamRevision: l.streamRevision.toString(),
          eventId: l.eventId,
          eventType: l.eventType,
          position: l.position,
          reason: l.reason,
          failure: l.error,
          attempts: l.attempts,
          parkedAt: l.parkedAt.toISOString(),
        })),
        total,
        truncated: total > letters.length,
      }
    },
  )
}
