// Events of the Document aggregate, version 1: metadata only. The bytes live in the
// document_contents table, written before this event is appended (see commands/documents).
import { z } from 'zod'
import { DOCUMENT_LIMITS } from './content.js'

export const DocumentUploaded = z.object({
  documentId: z.string(),
  organizationId: z.string(),
  customerId: z.string().nullable(),
  fileName: z.string(),
  contentType: z.string(),
  /** At most the upload's limit, as every upload since documents exist (the read model's column is an integer). */
  sizeBytes: z.number().int().positive().max(DOCUMENT_LIMITS.maxBytes),
  /** Hex SHA-256 of the content: ties this record to the stored bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  uploadedAt: z.string(),
})

export const documentEventSchemas = { DocumentUploaded } as const

export type DocumentEvent = { type: 'DocumentUploaded'; data: z.infer<typeof DocumentUploaded> }
