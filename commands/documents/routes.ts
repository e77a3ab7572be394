// POST /v1/documents: upload a document (JSON with base64 content). Checks type, size and that the
// bytes match the type; stores the bytes durably, then records the Document aggregate's event.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { writeHeaders } from '../../http/headers.js'
import {
  DOCUMENT_LIMITS,
  DOCUMENT_UPLOAD_BODY_LIMIT_BYTES,
  decodeBase64,
  matchesContentType,
  sha256Hex,
} from '../../domain/document/content.js'
import { documentDecider } from '../../domain/document/decider.js'
import { documentResource, toDocumentResource, uploadDocumentBody } from '../../domain/document/resource.js'
import { DomainError, invalid, notFound } from '../../domain/errors.js'
import { SubjectErasedError } from '../../events/protection/dataKeys.js'
import { errorResponses } from '../../http/errorBody.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import { principalOf } from '../../http/principal.js'
import { loadCustomer } from '../customers/facts.js'
import { scopedCustomerId } from '../customers/scope.js'
import { type CommandRuntime, deciderBinding } from '../runtime/commandRuntime.js'
import type { DocumentContentStore } from '../../domain/document/contentStore.js'

export type DocumentRouteDeps = {
  commands: CommandRuntime
  documentContents: DocumentContentStore
}

export const documentCommands = deciderBinding({
  decider: documentDecider,
  streamOf: (command) => streams.document(command.documentId),
  // Every document command uploads a new document under a fresh id.
  startsStream: () => true,
  toResource: (state) => {
    if (state.status !== 'uploaded') throw new Error('document state missing after upload')
    return toDocumentResource(state)
  },
})

export const documentWriteRoutes: FastifyPluginAsyncZod<DocumentRouteDeps> = async (app, deps) => {
  const documents = deps.commands.bind(documentCommands)
  app.post(
    '/documents',
    {
      bodyLimit: DOCUMENT_UPLOAD_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'uploadDocument',
        tags: ['Documents'],
        summary: 'Upload a document (PDF, JPEG or PNG, base64, at most 5 MiB)',
        description:
          'Returns a doc_ id usable in governmentId, proofOfAddress, supportingDocuments and proofOfSourceOfFunds. The content is ' +
          "stored durably, encrypted with the customer's data key (the document's own without a customer), never logged; download it " +
          'with GET /v1/documents/{id}/content. 422: content not base64 (document_content_invalid), over 5 MiB decoded ' +
          '(document_too_large), bytes not matching contentType (document_content_mismatch). 404: customerId unknown. 409: the ' +
          "customer's data was erased (customer_erased), as for every write of personal data. 413: body over the upload limit.",
        headers: writeHeaders,
        body: uploadDocumentBody,
        response: { 201: documentResource, ...errorResponses(404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const body = request.body
      const customerId = scopedCustomerId(request, body.customerId)
      if (customerId !== undefined) {
        const customer = await loadCustomer(deps.commands, customerId)
        if (!customer.exists || customer.organizationId !== organizationId) throw notFound('Customer', customerId)
      }
      const bytes = decodeBase64(body.content)
      if (!bytes || bytes.length === 0)
        throw invalid('document_content_invalid', 'content must be base64', [{ field: 'content', message: 'not valid base64' }])
      if (bytes.length > DOCUMENT_LIMITS.maxBytes) {
        throw invalid('document_too_large', `A document may be at most ${DOCUMENT_LIMITS.maxBytes} bytes`, [
          { field: 'content', message: `decoded size ${bytes.length} bytes is over ${DOCUMENT_LIMITS.maxBytes}` },
        ])
      }
      if (!matchesContentType(bytes, body.contentType)) {
        throw invalid('document_content_mismatch', `The content is not ${body.contentType}`, [
          { field: 'contentType', message: "does not match the content's file signature", value: body.contentType },
        ])
      }
      const documentId = newId('doc')
      const sha256 = sha256Hex(bytes)
      try {
        await deps.documentContents.put({ documentId, organizationId, customerId: customerId ?? null, content: bytes, sha256 })
      } catch (error) {
        // The customer's data was erased (its key shredded): nothing of theirs can be stored again.
        if (error instanceof SubjectErasedError)
          throw new DomainError('conflict', 'customer_erased', `The data of customer ${customerId} was erased; it takes no new documents`)
        throw error
      }
      const document = await documents.handle(request, {
        type: 'UploadDocument',
        documentId,
        organizationId,
        customerId: customerId ?? null,
        fileName: body.fileName,
        contentType: body.contentType,
        sizeBytes: bytes.length,
        sha256,
        uploadedAt: new Date().toISOString(),
      })
      return reply.code(201).send(document)
    },
  )
}
