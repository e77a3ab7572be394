// Read routes of webhook endpoints: list, read one, read the signing secret.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { errorResponses, notFound } from '../../domain/errors.js'
import { toWebhookEndpointResource, toWebhookSecretResource, webhookEndpointResource, webhookSecretResource } from '../../domain/webhook-endpoint/resource.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { cursorPageSchema, cursorQuery, toCursorPage } from '../pagination/cursorPage.js'
import { findEndpoint, listEndpoints, rowToView } from './queries.js'

const endpointParams = z.object({ endpointId: z.string().max(64).describe('Endpoint id, prefix ep_') })
const TAGS = ['Webhooks']

export const webhookEndpointReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get('/webhooks/endpoints', {
    schema: {
      tags: TAGS,
      summary: 'List webhook endpoints, newest first',
      querystring: cursorQuery,
      response: { 200: cursorPageSchema(webhookEndpointResource), ...errorResponses(422) },
    },
  }, async (request) => {
    const rows = await listEndpoints(db, request.principal!.organizationId, request.query)
    return toCursorPage(rows, request.query, '/v1/webhooks/endpoints', (row) => toWebhookEndpointResource(rowToView(row)))
  })

  app.get('/webhooks/endpoints/:endpointId', {
    schema: {
      tags: TAGS,
      summary: 'Read a webhook endpoint',
      params: endpointParams,
      response: { 200: webhookEndpointResource, ...errorResponses(404) },
    },
  }, async (request) => {
    const row = await findEndpoint(db, request.principal!.organizationId, request.params.endpointId)
    if (!row) throw notFound('Webhook endpoint', request.params.endpointId)
    return toWebhookEndpointResource(rowToView(row))
  })

  app.get('/webhooks/endpoints/:endpointId/secret', {
    schema: {
      tags: TAGS,
      summary: 'Read the signing secret (whsec_ prefix) and any retired secrets still valid',
      params: endpointParams,
      response: { 200: webhookSecretResource, ...errorResponses(404) },
    },
  }, async (request, reply) => {
    const row = await findEndpoint(db, request.principal!.organizationId, request.params.endpointId)
    if (!row) throw notFound('Webhook endpoint', request.params.endpointId)
    reply.header('cache-control', 'no-store')
    return toWebhookSecretResource(row.secrets, new Date())
  })
}
