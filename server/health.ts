// GET /health: the database answers, and each event consumer (the projection runner, the webhook
// subscriber) is ok or failing, as recorded in consumer_failures by whichever process runs it; no
// authentication. A failing consumer makes the status "degraded" with 200, not 503: the service
// still serves reads and accepts writes, and a load balancer taking it out would serve nothing.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { listFailures } from '../events/consumers/consumerRecords.js'
import type { ReadDatabase } from '../projections/schema.js'
import { CONSUMER_NAMES } from './runtime.js'

const consumerSchema = z.object({
  name: z.string(),
  status: z.enum(['ok', 'failing']),
  /** Set while failing: since when, and how many attempts on the event it is stuck on. */
  failingSince: z.string().optional(),
  attempts: z.number().int().optional(),
})

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
      let failures: Awaited<ReturnType<typeof listFailures>>
      try {
        // One query: reading the failure records also proves the database answers.
        failures = await listFailures(deps.db)
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const, environment: deps.environment, eventStore: deps.eventStore })
      }
      const consumers = CONSUMER_NAMES.map((name) => {
        const failure = failures.find((f) => f.consumer === name)
        return failure
          ? { name, status: 'failing' as const, failingSince: failure.failingSince.toISOString(), attempts: failure.attempts }
          : { name, status: 'ok' as const }
      })
      const status = consumers.some((c) => c.status === 'failing') ? ('degraded' as const) : ('ok' as const)
      return { status, environment: deps.environment, eventStore: deps.eventStore, consumers }
    },
  )
}
