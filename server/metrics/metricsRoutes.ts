// GET /metrics: the instance's Prometheus metrics in the text exposition format, with the gauges
// read fresh (scrapeGauges.ts). Outside /v1, no API key; with METRICS_TOKEN set, the operator's
// token. Not in the OpenAPI document: it is text for Prometheus, not part of the API.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ApiError } from '../../http/errorBody.js'
import { bearsOperatorToken } from '../observability/operatorToken.js'
import { type ScrapeSources, refreshGauges } from './scrapeGauges.js'
import type { ServiceMetrics } from './serviceMetrics.js'

export type MetricsDeps = { metrics: ServiceMetrics; sources: ScrapeSources; metricsToken: string | undefined }

export const metricsRoutes: FastifyPluginAsyncZod<MetricsDeps> = async (app, deps) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (deps.metricsToken !== undefined && !bearsOperatorToken(request.headers.authorization, deps.metricsToken)) {
      throw new ApiError(401, 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', 'metrics_token_required')
    }
    await refreshGauges(deps.metrics, deps.sources)
    const text = await deps.metrics.registry.metrics()
    return reply.type(deps.metrics.registry.contentType).send(text)
  })
}
