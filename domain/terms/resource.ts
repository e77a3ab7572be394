// POST /v1/tos/generate: request and response.
import { z } from 'zod'
import type { TermsEvent } from './events.js'

export const generateTermsBody = z
  .object({
    customerId: z
      .string()
      .max(64)
      .regex(/^cus_[0-9a-z]{26}$/, 'must be a customer id (cus_...)')
      .optional()
      .describe(
        'Binds the agreement to one customer; defaults to the X-On-Behalf-Of customer; omit for an agreement any customer may sign',
      ),
  })
  .default({})

export const termsAgreementResource = z.object({
  id: z.string().describe('Agreement id (prefix tos_); pass it as signedAgreementId once the customer has accepted'),
  customerId: z.string().nullable(),
  version: z.string().describe('Version of the terms'),
  url: z.string().describe('Where the customer reads and accepts the terms'),
  createdAt: z.string(),
})

export function toTermsResource(d: TermsEvent['data']): z.infer<typeof termsAgreementResource> {
  return { id: d.agreementId, customerId: d.customerId, version: d.version, url: d.url, createdAt: d.createdAt }
}
