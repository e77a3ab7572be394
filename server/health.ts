// GET /health: the database answers, and each event consumer group (the projections, the webhook
// subscriber, the workflows) is ok, failing on an event, or holding parked streams, as recorded in
// consumer_failures and consumer_parked by whichever process runs it; no authentication. A failing
// group, or one with dead letters, makes the status "degraded" with 200, not 503: the service still
// serves reads and accepts writes, and a load balancer taking it out would serve nothing. Beside
// the groups: each consumer's lag (events, seconds, stalled; events/consumers/consumerLag.ts, bounded)
// and the oldest dead letters of each group, whose tenant, stream and error only an operator sees
// (METRICS_TOKEN, or a sandbox without one).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { errorResponse } from '../http/errorBody.js'
import { type GroupHealth, readGroupHealth } from '../events/consumers/consumerHealth.js'
import type { LagReport } from '../events/consumers/consumerLag.js'
import { type ParkedGroupSummary, summarizeParked } from '../events/consumers/parkedSummary.js'
import type { ReadDatabase } from '../projections/schema.js'
import type { LagProbe } from './observability/lagProbe.js'
import { bearsOperatorToken } from './observability/operatorToken.js'
import { lagJsonSchema, toLagJson } from './observability/lagJson.js'
import { CONSUMER_NAMES } from './runtime.js'

const consumerSchema = z.object({
  name: z.string(),
  status: z.enum(['ok', 'failing', 'parked']).describe('failing: stuck on an event, backing off; parked: it holds dead letters'),
  /** Set while failing: since when, and how many attempts on the event it is stuck on. */
  failingSince: z.string().optional(),
  attempts: z.number().int().optional(),
  parked: z.number().int().optional().describe('Dead letters of the group (`projections parked`), when there are any'),
  parkedStreams: z.number().int().optional().describe('Streams they hold back'),
})

const letterSchema = z.object({
  consumer: z.string(),
  organizationId: z.string().nullable(),
  stream: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  reason: z.enum(['failed', 'behind']),
  error: z.string().nullable().describe('What failed and where, never the data'),
  parkedAt: z.string(),
  ageSeconds: z.number(),
})

const parkedGroupSchema = z.object({
  group: z.string(),
  letters: z.number().int(),
  oldest: z.array(letterSchema).optional().describe('The oldest letters (at most 20); shown to an operator only'),
})

function consumerStatus(name: string, health: GroupHealth | undefined) {
  const { failure, parked } = health ?? { failure: undefined, parked: undefined }
  return {
    name,
    status: failure ? ('failing' as const) : parked ? ('parked' as const) : ('ok' as const),
    ...(failure ? { failingSince: failure.failingSince.toISOString(), attempts: failure.attempts } : {}),
    ...(parked ? { parked: parked.letters, parkedStreams: parked.streams } : {}),
  }
}

function parkedJson(groups: ParkedGroupSummary[], now: Date, details: boolean) {
  return groups.map((g) => ({
    group: g.group,
    letters: g.letters,
    ...(details
      ? {
          oldest: g.oldest.map((l) => ({
            ...l,
            parkedAt: l.parkedAt.toISOString(),
            ageSeconds: Math.max(0, (now.getTime() - l.parkedAt.getTime()) / 1000),
          })),
        }
      : {}),
  }))
}

export type HealthDeps = {
  db: Kysely<ReadDatabase>
  environment: string
  eventStore: string
  lag: LagProbe
  clock: () => Date
  metricsToken: string | undefined
}

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['Health'],
        summary: 'Health check',
        response: {
          200: z.object({
            status: z.enum(['ok', 'degraded']),
            environment: z.string(),
            eventStore: z.string(),
            consumers: z.array(consumerSchema),
            lag: lagJsonSchema,
            parked: z.array(parkedGroupSchema).describe('Groups holding dead letters'),
          }),
          // No key, no rate limit: only the HTTP parser's own refusal is a client error here.
          431: errorResponse(431),
          503: z.object({ status: z.literal('unavailable'), environment: z.string(), eventStore: z.string() }),
        },
      },
    },
    async (request, reply) => {
      let read: [Map<string, GroupHealth>, LagReport, ParkedGroupSummary[]]
      try {
        // Reading the failure and dead-letter records also proves the database answers; the lag, the event store.
        read = await Promise.all([readGroupHealth(deps.db), deps.lag.measure(), summarizeParked(deps.db)])
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const, environment: deps.environment, eventStore: deps.eventStore })
      }
      const [groups, lag, parked] = read
      const consumers = CONSUMER_NAMES.map((name) => consumerStatus(name, groups.get(name)))
      const status = consumers.some((c) => c.status !== 'ok') ? ('degraded' as const) : ('ok' as const)
      const details =
        deps.metricsToken === undefined
          ? deps.environment === 'sandbox'
          : bearsOperatorToken(request.headers.authorization, deps.metricsToken)
      return {
        status,
        environment: deps.environment,
        eventStore: deps.eventStore,
        consumers,
        lag: toLagJson(lag),
        parked: parkedJson(parked, deps.clock(), details),
      }
    },
  )
}
