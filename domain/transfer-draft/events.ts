// Events of a transfer draft, one stream per draft (`transfer_draft-tdraft_...`): registered with
// its hash and payees (and, in the sandbox, the outcome its screening will reach), screening
// started, approved or rejected, and used by the one transfer created from it. Internal events
// only: no public webhook type (the spec's list has none for drafts). Nothing personal: a hash and ids.
import { z } from 'zod'
import { ENVIRONMENTS } from '../shared/environment.js'

export const TRANSFER_DRAFT_LIMITS = {
  /** A draft binds its one destination account; room for a few, should a body ever name more payees. */
  maxDestinationAccounts: 8,
} as const

const id = z.string().min(1).max(64)
const at = z.iso.datetime()
/** Every event names its draft, organization and customer: a projection is made from the event alone. */
const ref = { draftId: id, organizationId: id, customerId: id }
const decidedBy = z.enum(['SANDBOX', 'OPERATOR']).describe('The sandbox screening engine, or an operator (production)')

export const TransferDraftRegistered = z.object({
  ...ref,
  /** The approval record's own id (tda_). */
  approvalId: id,
  draftHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  destinationAccountIds: z.array(id).min(1).max(TRANSFER_DRAFT_LIMITS.maxDestinationAccounts),
  environment: z.enum(ENVIRONMENTS),
  /** Sandbox only: the outcome its screening reaches (domain/transfer-draft/screening.ts); null in production. */
  sandboxOutcome: z.enum(['APPROVED', 'REJECTED']).nullable(),
  createdAt: at,
})

export const TransferDraftScreeningStarted = z.object({ ...ref, decidedBy, at })
export const TransferDraftApproved = z.object({ ...ref, decidedBy, at })
export const TransferDraftRejected = z.object({ ...ref, decidedBy, at })
export const TransferDraftUsed = z.object({ ...ref, transferId: id, at })

export const transferDraftEventSchemas = {
  TransferDraftRegistered,
  TransferDraftScreeningStarted,
  TransferDraftApproved,
  TransferDraftRejected,
  TransferDraftUsed,
} as const

type Schemas = typeof transferDraftEventSchemas
export type TransferDraftEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type TransferDraftRegisteredData = z.infer<typeof TransferDraftRegistered>
