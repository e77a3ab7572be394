// Events of the TermsAgreement aggregate, version 1.
import { z } from 'zod'

export const TermsAgreementGenerated = z.object({
  agreementId: z.string(),
  organizationId: z.string(),
  customerId: z.string().nullable(),
  version: z.string(),
  url: z.string(),
  createdAt: z.string(),
})

export const termsEventSchemas = { TermsAgreementGenerated } as const

export type TermsEvent = { type: 'TermsAgreementGenerated'; data: z.infer<typeof TermsAgreementGenerated> }
