// GET /v1/documents/{id}: a document's metadata (never its content).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { documentResource } from '../../domain/document/resource.js'
import { notFound } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { principalOf } from '../../http/principal.js'

const params = idParam('id', 'doc_', 'Document')

export const documentReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get(
    '/documents/:id',
    {
      schema: {
        tags: ['Documents'],
        summary: "Read a document's metadata",
        headers: readHeaders,
        params,
        response: { 200: documentResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const row = await db
        .selectFrom('documents')
        .selectAll()
        .where('organization_id', '=', principalOf(request).organizationId)
        .where('id', '=', request.params.id)
        .executeTakeFirst()
      // With X-On-Behalf-Of, another customer's document does not exist for this request.
      if (!row || (request.onBehalfOf !== undefined && row.customer_id !== null && row.customer_id !== request.onBehalfOf))
        throw notFound('Document', request.params.id)
      return {
        id: row.id,
        customerId: row.customer_id,
        fileName: row.file_name,
        contentType: row.content_type,
        sizeBytes: row.size_bytes,
        sha256: row.sha256,
        createdAt: row.created_at.toISOString(),
      }
    },
  )
}
