// The webhook endpoints slice: write routes (with the egress check and the per-organization limit)
// and reads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { webhookEndpointWriteRoutes } from '../../commands/webhook-endpoints/routes.js'
import { countEndpoints } from '../../read-api/webhook-endpoints/queries.js'
import { webhookEndpointReadRoutes } from '../../read-api/webhook-endpoints/routes.js'
import { createEndpointUrlChecker } from '../../webhooks/egress/checkEndpointUrl.js'
import type { AreaContext } from './areaContext.js'

export const webhookEndpointsArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const webhookEndpoints = {
    checkUrl: createEndpointUrlChecker(c.environment, c.resolver ? { resolver: c.resolver } : {}),
    count: (organizationId: string) => countEndpoints(c.db, organizationId),
    maxPerOrganization: c.config.WEBHOOK_ENDPOINTS_PER_ORGANIZATION,
  }
  await app.register(webhookEndpointWriteRoutes, { ...c, webhookEndpoints })
  await app.register(webhookEndpointReadRoutes, c)
}
