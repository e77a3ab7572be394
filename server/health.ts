// GET /health: the database answers and the projections' progress; no authentication.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { type Kysely, sql } from 'kysely'
import { z } from 'zod'
import type { ReadDatabase } from '../projections/schema.js'

export const healthRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; environment: string; eventStore: string }> = async (app, deps) => {
  app.get('/health', {
    schema: {
      tags: ['Health'],
      summary: 'Health check',
      response: {
        200: z.object({ status: z.literal('ok'), environment: z.string(), eventStore: z.string() }),
        503: z.object({ status: z.literal('unavailable'), environment: z.string(), eventStore: z.string() }),
      },
    },
  }, async (_request, reply) => {
    try {
      await sql`SELECT 1`.execute(deps.db)
      return { status: 'ok' as const, environment: deps.environment, eventStore: deps.eventStore }
    } catch {
      return reply.code(503).send({ status: 'unavailable' as const, environment: deps.environment, eventStore: deps.eventStore })
    }
  })
}
