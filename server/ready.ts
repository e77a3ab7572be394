// GET /ready: 503 until the stores answer and every consumer is within READY_MAX_LAG_EVENTS and
// READY_MAX_LAG_SECONDS of the head, 200 after; no authentication. Once caught up, an instance stays
// ready while its stores answer: lag is the database's, shared by every instance, so turning them all
// away for it would serve nothing (/health and /metrics show it). A lag that is only a lower bound
// (the bounded scan stopped short) counts as behind.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { z } from 'zod'
import { errorResponse } from '../http/errorBody.js'
import type { ConsumerLag } from '../events/consumers/consumerLag.js'
import type { EventStore } from '../events/store/port.js'
import type { ReadDatabase } from '../projections/schema.js'
import type { LagProbe } from './observability/lagProbe.js'

export const READY_LIMITS = {
  /** Consumers named in a 503's `behind`. */
  maxBehindListed: 20,
} as const

export type ReadyDeps = {
  db: Kysely<ReadDatabase>
  store: EventStore
  lag: LagProbe
  maxLagEvents: number
  maxLagSeconds: number
}

const behindSchema = z.object({ name: z.string(), group: z.string(), lagEvents: z.number().int(), lagSeconds: z.number() })

export const readyRoutes: FastifyPluginAsyncZod<ReadyDeps> = async (app, deps) => {
  let caughtUp = false
  const isBehind = (c: ConsumerLag) => c.lagIsLowerBound || c.lagEvents > deps.maxLagEvents || c.lagSeconds > deps.maxLagSeconds

  app.get(
    '/ready',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['Health'],
        summary: 'Readiness check',
        description:
          '503 until the database and the event store answer and every event consumer is within the configured lag of the head ' +
          '(READY_MAX_LAG_EVENTS, READY_MAX_LAG_SECONDS); 200 after, while the stores answer.',
        response: {
          200: z.object({ status: z.literal('ready') }),
          // No key, no rate limit: only the HTTP parser's own refusal is a client error here.
          431: errorResponse(431),
          503: z.object({
            status: z.literal('not_ready'),
            reason: z.enum(['stores_unavailable', 'consumers_behind']),
            behind: z.array(behindSchema).describe('Consumers past the bound (at most 20)'),
          }),
        },
      },
    },
    async (_request, reply) => {
      const notReady = (reason: 'stores_unavailable' | 'consumers_behind', behind: z.infer<typeof behindSchema>[] = []) =>
        reply.code(503).send({ status: 'not_ready' as const, reason, behind })
      try {
        if (caughtUp) {
          await Promise.all([sql`SELECT 1`.execute(deps.db), deps.store.readHead()])
          return { status: 'ready' as const }
        }
        // The lag reads both stores (checkpoints and skips from the database, the head and marks from the event store).
        const report = await deps.lag.measure()
        const behind = report.consumers.filter(isBehind)
        if (behind.length > 0) {
          const listed = behind.slice(0, READY_LIMITS.maxBehindListed)
          return notReady(
            'consumers_behind',
            listed.map((c) => ({ name: c.name, group: c.group, lagEvents: c.lagEvents, lagSeconds: c.lagSeconds })),
          )
        }
        caughtUp = true
        return { status: 'ready' as const }
      } catch {
        return notReady('stores_unavailable')
      }
    },
  )
}
