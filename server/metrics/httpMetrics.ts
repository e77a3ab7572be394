// Request rate and latency by method, route pattern and status code (http_request_duration_seconds).
// The pattern, never the raw URL: ids in paths would make a series per resource. A request no route
// matched counts under "(unmatched)".
import type { FastifyInstance } from 'fastify'
import type { ServiceMetrics } from './serviceMetrics.js'

export function observeHttpRequests(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? '(unmatched)'
    metrics.httpRequestDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000)
  })
}
