// Read routes of webhook endpoints: list, read one, read the signing secret.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { notFound } from '../../domain/errors.js'
import {
  toWebhookEndpointResource,
  toWebhookSecretResource,
  webhookEndpointResource,
  webhookSecretResource,
} from '../../domain/webhook-endpoint/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { idParam } from '../../http/idParam.js'
import { cursorPageSchema, cursorQuery, toCursorPage } from '../../http/pagination/cursorPage.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type DataProtection, sealedEndpointSecrets } from '../../projections/sealedColumns.js'
import { findEndpoint, listEndpoints, listedToResource, rowToView } from './queries.js'
import { principalOf } from '../../http/principal.js'

const endpointParams = idParam('endpointId', 'ep_', 'Endpoint')
const TAGS = ['Webhooks']

export const webhookEndpointReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  app.get(
    '/webhooks/endpoints',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        tags: TAGS,
        summary: 'List webhook endpoints, newest first',
        querystring: cursorQuery,
        response: { 200: cursorPageSchema(webhookEndpointResource), ...errorResponses(422) },
      },
    },
    async (request) => {
      const rows = await listEndpoints(db, principalOf(request).organizationId, request.query)
      return toCursorPage(rows, request.query, { path: '/v1/webhooks/endpoints' }, listedToResource)
    },
  )

  app.get(
    '/webhooks/endpoints/:endpointId',
    {
      schema: {
        operationId: 'getWebhookEndpoint',
        tags: TAGS,
        summary: 'Read a webhook endpoint',
        params: endpointParams,
        response: { 200: webhookEndpointResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const row = await findEndpoint(db, principalOf(request).organizationId, request.params.endpointId)
      if (!row) throw notFound('Webhook endpoint', request.params.endpointId)
      return toWebhookEndpointResource(rowToView(row))
    },
  )

  app.get(
    '/webhooks/endpoints/:endpointId/secret',
    {
      schema: {
        operationId: 'getWebhookEndpointSecret',
        tags: TAGS,
        summary: 'Read the signing secret (whsec_ prefix) and any retired secrets still valid',
        params: endpointParams,
        response: { 200: webhookSecretResource, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const row = await findEndpoint(db, principalOf(request).organizationId, request.params.endpointId)
      if (!row) throw notFound('Webhook endpoint', request.params.endpointId)
      reply.header('cache-control', 'no-store')
      return toWebhookSecretResource(await sealedEndpointSecrets.open(protection, row.id, row.secrets, row.organization_id), new Date())
    },
  )
}
