// GET /v1/documents/{id}: a document's metadata; GET /v1/documents/{id}/content: its bytes, opened
// with its subject's data key (410 document_erased once that key was shredded).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely, Selectable } from 'kysely'
import { z } from 'zod'
import { DOCUMENT_CONTENT_TYPES } from '../../domain/document/content.js'
import { documentResource } from '../../domain/document/resource.js'
import { notFound } from '../../domain/errors.js'
import { ApiError, errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { openDocumentContent } from '../../projections/documentContentStore.js'
import type { DocumentsTable, ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../projections/sealedColumns.js'
import { principalOf } from '../../http/principal.js'
import { attachmentDisposition } from './contentDisposition.js'

const params = idParam('id', 'doc_', 'Document')

/** The bytes, whichever allowed type they are (OpenAPI 3.0's binary string). */
const documentBytes = z.string().meta({ format: 'binary' }).describe('The document as uploaded')

export const documentReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  async function documentOr404(request: FastifyRequest, id: string): Promise<Selectable<DocumentsTable>> {
    const row = await db
      .selectFrom('documents')
      .selectAll()
      .where('organization_id', '=', principalOf(request).organizationId)
      .where('id', '=', id)
      .executeTakeFirst()
    // With X-On-Behalf-Of, another customer's document does not exist for this request.
    if (!row || (request.onBehalfOf !== undefined && row.customer_id !== null && row.customer_id !== request.onBehalfOf))
      throw notFound('Document', id)
    return row
  }

  app.get(
    '/documents/:id',
    {
      schema: {
        operationId: 'getDocument',
        tags: ['Documents'],
        summary: "Read a document's metadata",
        headers: readHeaders,
        params,
        response: { 200: documentResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const row = await documentOr404(request, request.params.id)
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

  app.get(
    '/documents/:id/content',
    {
      schema: {
        operationId: 'downloadDocumentContent',
        tags: ['Documents'],
        summary: "Download a document's content (as an attachment, with its stored content type)",
        description:
          "Answers the bytes as uploaded, with the document's contentType and Content-Disposition: attachment. 404 for an unknown " +
          "id or another organization's document; 410 document_erased once the customer's data was erased.",
        headers: readHeaders,
        params,
        response: {
          200: {
            description: 'The document bytes',
            content: Object.fromEntries(DOCUMENT_CONTENT_TYPES.map((type) => [type, { schema: documentBytes }])),
          },
          ...errorResponses(404, 410),
        },
      },
    },
    async (request, reply) => {
      const row = await documentOr404(request, request.params.id)
      const stored = await db
        .selectFrom('document_contents')
        .select('content')
        .where('document_id', '=', row.id)
        .where('organization_id', '=', row.organization_id)
        .executeTakeFirst()
      if (!stored) throw notFound('Document', row.id)
      const content = await openDocumentContent(protection, { documentId: row.id, customerId: row.customer_id }, stored.content)
      if (!content) throw new ApiError(410, `The content of document ${row.id} was erased with its customer's data`, 'document_erased')
      return (
        reply
          .header('content-type', row.content_type)
          .header('content-disposition', attachmentDisposition(row.file_name))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          // The schema types the body as the binary string OpenAPI shows; fastify sends a Buffer as is.
          .send(content as unknown as string)
      )
    },
  )
}
