// GET /health: the database answers, and each event consumer group (the projections, the webhook
// subscriber, the workflows) is ok, failing on an event, or holding parked streams, as recorded in
// consumer_failures and consumer_parked by whichever process runs it; no authentication. A failing
// group, or one with dead letters, makes the status "degraded" with 200, not 503: the service still
// serves reads and accepts writes, and a load balancer taking it out would serve nothing.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { type GroupHealth, readGroupHealth } from '../events/consumers/consumerHealth.js'
import type { ReadDatabase } from '../projections/schema.js'
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

function consumerStatus(name: string, health: GroupHealth | undefined) {
  const { failure, parked } = health ?? { failure: undefined, parked: undefined }
  return {
    name,
    status: failure ? ('failing' as const) : parked ? ('parked' as const) : ('ok' as const),
    ...(failure ? { failingSince: failure.failingSince.toISOString(), attempts: failure.attempts } : {}),
    ...(parked ? { parked: parked.letters, parkedStreams: parked.streams } : {}),
  }
}

export const healthRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; environment: string; eventStore: string }> = async (
  app,
  deps,
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Health'],
        summary: 'Health check',
        response: {
          200: z.object({
            status: z.enum(['ok', 'degraded']),
            environment: z.string(),
            eventStore: z.string(),
            consumers: z.array(consumerSchema),
          }),
          503: z.object({ status: z.literal('unavailable'), environment: z.string(), eventStore: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      let groups: Awaited<ReturnType<typeof readGroupHealth>>
      try {
        // One query: reading the failure and dead-letter records also proves the database answers.
        groups = await readGroupHealth(deps.db)
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const, environment: deps.environment, eventStore: deps.eventStore })
      }
      const consumers = CONSUMER_NAMES.map((name) => consumerStatus(name, groups.get(name)))
      const status = consumers.some((c) => c.status !== 'ok') ? ('degraded' as const) : ('ok' as const)
      return { status, environment: deps.environment, eventStore: deps.eventStore, consumers }
    },
  )
}
