// Projects document metadata (the content is in document_contents, written by the upload command).
// A document is uploaded once and never changes: its row is its state after the one event.
import type { Insertable } from 'kysely'
import { type DocumentState, documentDecider } from '../domain/document/decider.js'
import type { DocumentEvent } from '../domain/document/events.js'
import { parsedEvent } from './parsedEvent.js'
import type { DocumentsTable } from './schema.js'
import type { Projector } from './runtime/projector.js'

// ---- Evolve: event to row (pure) --------------------------------------------------------------
function documentRow(d: DocumentState): Insertable<DocumentsTable> {
  if (d.status === 'none') throw new Error('a document has no state after DocumentUploaded')
  return {
    id: d.documentId,
    organization_id: d.organizationId,
    customer_id: d.customerId,
    file_name: d.fileName,
    content_type: d.contentType,
    size_bytes: d.sizeBytes,
    sha256: d.sha256,
    created_at: d.uploadedAt,
  }
}

// ---- Write ------------------------------------------------------------------------------------
export const documentsProjector: Projector = {
  name: 'documents',
  tables: ['documents'],
  handles: new Set(['DocumentUploaded']),
  async apply(db, recorded) {
    const event = parsedEvent<DocumentEvent>(recorded)
    await db
      .insertInto('documents')
      .values(documentRow(documentDecider.evolve(documentDecider.initialState(), event)))
      .execute()
  },
}
