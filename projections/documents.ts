// Projects document metadata (the content is in document_contents, written by the upload command).
import type { DocumentEvent } from '../domain/document/events.js'
import type { Projector } from './runtime/projector.js'

export const documentsProjector: Projector = {
  name: 'documents',
  tables: ['documents'],
  handles: new Set(['DocumentUploaded']),
  async apply(db, recorded) {
    const { data: d } = { type: recorded.type, data: recorded.data } as DocumentEvent
    await db.insertInto('documents').values({
      id: d.documentId, organization_id: d.organizationId, customer_id: d.customerId, file_name: d.fileName,
      content_type: d.contentType, size_bytes: d.sizeBytes, sha256: d.sha256, created_at: d.uploadedAt,
    }).execute()
  },
}
