// What an auditor key may call (issue 29): it reads, never writes. Every GET (HEAD) route of its
// organization, /v1/audit included, answers as it would a full key; any other method is 403
// auditor_key_read_only before the route runs (nothing decided, nothing appended, no idempotency
// record). A few reads hand out a credential rather than a record, and are refused too.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../../http/errorBody.js'

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD'])

/** Reads an auditor key may not make, by route: a webhook signing secret would let its holder forge deliveries. */
export const AUDITOR_DENIED_READS: ReadonlySet<string> = new Set(['/v1/webhooks/endpoints/:endpointId/secret'])

export const auditorScope = fp(async (app: FastifyInstance) => {
  // Registered after authenticate: the principal is known, the route matched.
  app.addHook('onRequest', async (request) => {
    if (request.principal?.role !== 'AUDITOR') return
    const route = request.routeOptions.url ?? request.url
    if (!READ_METHODS.has(request.method)) {
      throw new ApiError(403, `An auditor key only reads: it cannot call ${request.method} ${route}`, 'auditor_key_read_only')
    }
    if (AUDITOR_DENIED_READS.has(route)) {
      throw new ApiError(403, `An auditor key cannot read ${route}: it hands out a credential`, 'auditor_key_not_allowed')
    }
  })
})
