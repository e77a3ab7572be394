// The documents projector, given events then rows: one metadata row per upload (the content is the
// upload command's, in document_contents, which no projector owns).
import t from 'tap'
import type { DocumentEvent } from '../../domain/document/events.js'
import { documentsProjector } from '../../projections/documents.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'

const documents = projectorSpec(await projectionDatabase(t), documentsProjector)
const now = '2026-03-01T10:00:00.000Z'

const uploaded = (documentId: string, customerId: string | null): DocumentEvent => ({
  type: 'DocumentUploaded',
  data: {
    documentId,
    organizationId: 'org_a',
    customerId,
    fileName: `${documentId}.pdf`,
    contentType: 'application/pdf',
    sizeBytes: 1024,
    sha256: 'a'.repeat(64),
    uploadedAt: now,
  },
})

t.test('uploaded: a metadata row per document, with or without a customer', async (t) => {
  await documents.given([uploaded('doc_1', 'cus_1'), uploaded('doc_2', null)]).thenRows(t, {
    documents: [
      {
        id: 'doc_1',
        organization_id: 'org_a',
        customer_id: 'cus_1',
        file_name: 'doc_1.pdf',
        content_type: 'application/pdf',
        size_bytes: 1024,
        sha256: 'a'.repeat(64),
        created_at: now,
      },
      { id: 'doc_2', customer_id: null },
    ],
  })
})
