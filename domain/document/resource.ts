// The upload request and the document record as the API shows them.
import { z } from 'zod'
import { DOCUMENT_CONTENT_TYPES, DOCUMENT_LIMITS } from './content.js'
import type { DocumentEvent } from './events.js'

export const uploadDocumentBody = z.object({
  customerId: z
    .string()
    .max(64)
    .regex(/^cus_[0-9a-z]{26}$/, 'must be a customer id (cus_...)')
    .optional()
    .describe('Customer the document belongs to; it can then be used only for that customer. Defaults to the X-On-Behalf-Of customer.'),
  fileName: z
    .string()
    .trim()
    .min(1)
    .max(DOCUMENT_LIMITS.fileNameMaxLength)
    .regex(
      /^[^/\\\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]+$/,
      'must be a plain file name (no slashes, control characters or bidi overrides)',
    ),
  contentType: z.enum(DOCUMENT_CONTENT_TYPES).describe('The bytes must match it (checked by their signature)'),
  content: z
    .string()
    .min(4)
    .max(DOCUMENT_LIMITS.maxBase64Length)
    .describe(
      `File content, base64; at most ${DOCUMENT_LIMITS.maxBytes} bytes decoded. Stored durably and encrypted, never logged; ` +
        'downloaded with GET /v1/documents/{id}/content.',
    ),
})
export type UploadDocumentBody = z.infer<typeof uploadDocumentBody>

export const documentResource = z.object({
  id: z.string().describe('Document id, prefix doc_'),
  customerId: z.string().nullable(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string().describe('Hex SHA-256 of the content'),
  createdAt: z.string(),
})
export type DocumentResource = z.infer<typeof documentResource>

export function toDocumentResource(d: DocumentEvent['data']): DocumentResource {
  return {
    id: d.documentId,
    customerId: d.customerId,
    fileName: d.fileName,
    contentType: d.contentType,
    sizeBytes: d.sizeBytes,
    sha256: d.sha256,
    createdAt: d.uploadedAt,
  }
}
