// GET /v1/operator/consumers: each consumer group's state (ok, failing on an event, holding dead
// letters) with its dead-letter counts, and each consumer's lag, the figures /health and
// `projections status` show (events/consumers/: consumerLag.ts through the app's lag probe,
// consumerRecords.ts, deadLetters.ts). Deployment-wide: no tenant's data, only counts and positions.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { type ConsumerFailure, listFailures } from '../../events/consumers/consumerRecords.js'
import { type ParkedCount, countDeadLetters } from '../../events/consumers/deadLetters.js'
import { errorResponses } from '../../http/errorBody.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { lagJsonSchema, toLagJson } from '../observability/lagJson.js'
import type { LagProbe } from '../observability/lagProbe.js'
import { CONSUMER_NAMES } from '../runtime.js'
import { OPERATOR_TAGS } from './operatorTags.js'

const groupSchema = z.object({
  name: z.string().describe('The consumer group: projections, the webhook subscriber, workflows, the audit tree sealer'),
  status: z.enum(['ok', 'failing', 'parked']).describe('failing: stuck on an event, backing off; parked: it holds dead letters'),
  failing: z
    .object({
      since: z.string(),
      attempts: z.number().int(),
      lastError: z.string().describe('What failed and where, never the event’s data'),
      eventId: z.string(),
      eventType: z.string(),
      nextAttemptAt: z.string(),
    })
    .nullable()
    .describe('The event it is stuck on, while it is'),
  deadLetters: z.number().int().describe('Its dead letters (GET /v1/operator/parked-events lists them)'),
  deadLetterStreams: z.number().int().describe('Streams they hold back'),
  deadLettersFailed: z.number().int().describe('Letters that failed themselves (the rest wait behind one that did)'),
})

const consumersSchema = z
  .object({
    status: z.enum(['ok', 'degraded']).describe('degraded while a group is failing or holds dead letters'),
    groups: z.array(groupSchema),
    lag: lagJsonSchema.describe('Each consumer’s lag past its checkpoint (a bounded scan, as GET /health measures it)'),
  })
  .describe('The deployment’s event consumers')

function groupJson(name: string, failure: ConsumerFailure | undefined, parked: readonly ParkedCount[]): z.infer<typeof groupSchema> {
  const letters = parked.filter((p) => p.group === name)
  const sum = (field: 'letters' | 'streams' | 'failed') => letters.reduce((n, p) => n + p[field], 0)
  return {
    name,
    status: failure ? 'failing' : letters.length > 0 ? 'parked' : 'ok',
    failing: failure
      ? {
          since: failure.failingSince.toISOString(),
          attempts: failure.attempts,
          lastError: failure.lastError,
          eventId: failure.event.id,
          eventType: failure.event.type,
          nextAttemptAt: failure.nextAttemptAt.toISOString(),
        }
      : null,
    deadLetters: sum('letters'),
    deadLetterStreams: sum('streams'),
    deadLettersFailed: sum('failed'),
  }
}

export const operatorConsumersRoute: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; lag: LagProbe }> = async (app, { db, lag }) => {
  app.get(
    '/operator/consumers',
    {
      schema: {
        operationId: 'listOperatorConsumers',
        tags: OPERATOR_TAGS,
        summary: 'Each consumer group’s state, dead letters and lag (operator keys only)',
        description:
          'What GET /health and `projections status` report, for an operator key: each group ok, failing (since when, how many ' +
          'attempts, on which event, the last error) or holding dead letters (how many, on how many streams), and each ' +
          'consumer’s lag in events and seconds. Every other key is 403 operator_key_required.',
        response: { 200: consumersSchema, ...errorResponses(403) },
      },
    },
    async () => {
      const [failures, parked, report] = await Promise.all([listFailures(db), countDeadLetters(db), lag.measure()])
      const groups = CONSUMER_NAMES.map((name) =>
        groupJson(
          name,
          failures.find((f) => f.consumer === name),
          parked,
        ),
      )
      return { status: groups.every((g) => g.status === 'ok') ? ('ok' as const) : ('degraded' as const), groups, lag: toLagJson(report) }
    },
  )
}
