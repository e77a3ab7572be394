// What a draft registers: the POST /v1/transfers body without what belongs to the moment of sending
// (confirm, quoteId) or to the draft binding itself (draftId). The one schema for validation, types
// and the OpenAPI of POST /v1/transfer-drafts, and the shape that is hashed (draftHash.ts).
import { z } from 'zod'
import { createTransferBody } from '../transfer/createTransferBody.js'

export const draftTransferBody = createTransferBody
  .omit({ confirm: true, quoteId: true, draftId: true })
  .describe('The transfer the draft stands for: the POST /v1/transfers body without confirm, quoteId and draftId')
export type DraftTransferBody = z.infer<typeof draftTransferBody>

export const registerDraftBody = z
  .object({ transfer: draftTransferBody })
  .strict()
  .describe('A transfer draft to register for platform approval')

/** The part of a create body a draft binds: the body less confirm, quoteId and draftId. */
export function draftPartOf(body: DraftTransferBody & { confirm?: unknown; quoteId?: unknown; draftId?: unknown }): DraftTransferBody {
  const { confirm: _confirm, quoteId: _quoteId, draftId: _draftId, ...rest } = body
  return rest
}
