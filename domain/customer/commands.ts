// Commands the Customer aggregate decides. Ids, URLs and facts read from other streams
// (documents, terms agreements) are supplied by the command layer, so decide() stays pure.
import type { ReviewOutcome } from './enums.js'
import type { ErasureTrigger } from './events.js'
import type { AssociatedEntityData, CreateAssociatedBusinessBody, CreateAssociatedPersonBody } from './schemas/associatedEntity.js'
import type { SaveBusinessVerificationBody } from './schemas/businessVerification.js'
import type { CreateBusinessCustomerBody, CreateIndividualCustomerBody } from './schemas/create.js'
import type { SaveIndividualVerificationBody } from './schemas/individualVerification.js'
import type { DocumentFacts } from './validation/documentRefs.js'

/** What the command layer learned about a terms agreement from its stream. */
export type AgreementFacts = { organizationId: string; customerId: string | null }

/** A session the command may open: ids and URL minted by the command layer. */
export type NewSession = { sessionId: string; verificationUrl: string; expiresAt: string }

type Scoped = { organizationId: string; customerId: string; now: string }

type VerificationInputs = {
  submit: boolean
  /** Facts of every document the saved and new data reference. */
  documents: Readonly<Record<string, DocumentFacts>>
  agreements: Readonly<Record<string, AgreementFacts>>
  /** Fresh acceptance ids (tosa_), one per terms method the body may use. */
  acceptanceIds: readonly string[]
}

export type CustomerCommand =
  | (Scoped & { type: 'CreateIndividualCustomer'; body: CreateIndividualCustomerBody })
  | (Scoped & { type: 'CreateBusinessCustomer'; body: CreateBusinessCustomerBody })
  | (Scoped & VerificationInputs & { type: 'SaveIndividualVerification'; body: SaveIndividualVerificationBody })
  | (Scoped & VerificationInputs & { type: 'SaveBusinessVerification'; body: SaveBusinessVerificationBody })
  | (Scoped & { type: 'SubmitCustomer' })
  | (Scoped & { type: 'SimulateReview'; outcome: ReviewOutcome; reasons: string[] })
  | (Scoped & { type: 'ArchiveCustomer' })
  /** `actor`: who deletes; a draft's deletion also erases its data, in that actor's name. */
  | (Scoped & { type: 'DeleteCustomer'; actor: string })
  /** Not an API command: an operator (CLI) or the retention timer. */
  | (Scoped & {
      type: 'EraseCustomerData'
      trigger: Exclude<ErasureTrigger, 'DELETED_BEFORE_SUBMISSION'>
      erasedBy: string
      reason: string
    })
  | (Scoped & {
      type: 'AddAssociatedEntity'
      entityId: string
      entityType: 'INDIVIDUAL' | 'BUSINESS'
      body: CreateAssociatedPersonBody | CreateAssociatedBusinessBody
      documents: Readonly<Record<string, DocumentFacts>>
      session: NewSession
    })
  | (Scoped & {
      type: 'UpdateAssociatedEntity'
      entityId: string
      entityType: 'INDIVIDUAL' | 'BUSINESS'
      changes: AssociatedEntityData
      documents: Readonly<Record<string, DocumentFacts>>
    })
  | (Scoped & {
      type: 'CreateVerificationSession'
      session: NewSession
      associatedEntityId: string | null
      email: string | undefined
      sendInvite: boolean
    })
  | (Scoped & { type: 'ExpireVerificationSession'; sessionId: string })
  | (Scoped & { type: 'ExpireArchivedCustomerSessions' })

export type CustomerCommandOf<K extends CustomerCommand['type']> = Extract<CustomerCommand, { type: K }>
