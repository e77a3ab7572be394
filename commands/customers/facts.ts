// Facts a customer decision needs from other streams, read here so decide() stays pure: the
// documents and terms agreements the data references, and the customer's own saved data.
import type { AgreementFacts } from '../../domain/customer/commands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import type { CustomerState } from '../../domain/customer/state.js'
import type { DocumentFacts } from '../../domain/customer/validation/documentRefs.js'
import { documentDecider } from '../../domain/document/decider.js'
import { termsDecider } from '../../domain/terms/decider.js'
import { streams } from '../../events/streams.js'
import type { DomainEvent, Evolver } from '../../domain/decider.js'
import type { Commands } from '../runtime/commandRuntime.js'

/** Loads any aggregate's state (from the state this process keeps for the stream, when it has one). */
async function load<S, E extends DomainEvent>(commands: Commands, decider: Evolver<S, E>, stream: string): Promise<S> {
  return (await commands.load(decider, stream)).state
}

/** Most documents one decision may look up (every reference a verification can hold). */
export const MAX_DOCUMENT_LOOKUPS = 64

export async function loadCustomer(commands: Commands, customerId: string): Promise<CustomerState> {
  return load(commands, customerDecider, streams.customer(customerId))
}

export async function loadDocumentFacts(commands: Commands, documentIds: string[]): Promise<Record<string, DocumentFacts>> {
  const ids = [...new Set(documentIds)].slice(0, MAX_DOCUMENT_LOOKUPS)
  const entries = await Promise.all(
    ids.map(async (id) => {
      const state = await load(commands, documentDecider, streams.document(id))
      return state.status === 'uploaded'
        ? [[id, { organizationId: state.organizationId, customerId: state.customerId, contentType: state.contentType }] as const]
        : []
    }),
  )
  return Object.fromEntries(entries.flat())
}

export async function loadAgreementFacts(commands: Commands, agreementId: string | undefined): Promise<Record<string, AgreementFacts>> {
  if (agreementId === undefined) return {}
  const state = await load(commands, termsDecider, streams.termsAgreement(agreementId))
  return state.status === 'generated' ? { [agreementId]: { organizationId: state.organizationId, customerId: state.customerId } } : {}
}
