// Facts a customer decision needs from other streams, read here so decide() stays pure: the
// documents and terms agreements the data references, and the customer's own saved data.
import type { AgreementFacts } from '../../domain/customer/commands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import type { CustomerState } from '../../domain/customer/state.js'
import type { DocumentFacts } from '../../domain/customer/validation/documentRefs.js'
import { documentDecider } from '../../domain/document/decider.js'
import { termsDecider } from '../../domain/terms/decider.js'
import type { EventStore } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { DomainEvent } from '../../domain/decider.js'
import { type Evolver, loadLatest } from '../runtime/handleCommand.js'

/** Loads any aggregate's state (from the state this process keeps for the stream, when it has one). */
async function load<S, E extends DomainEvent>(store: EventStore, decider: Evolver<S, E>, stream: string): Promise<S> {
  return (await loadLatest(store, decider, stream)).state
}

/** Most documents one decision may look up (every reference a verification can hold). */
export const MAX_DOCUMENT_LOOKUPS = 64

export async function loadCustomer(store: EventStore, customerId: string): Promise<CustomerState> {
  return load(store, customerDecider, streams.customer(customerId))
}

export async function loadDocumentFacts(store: EventStore, documentIds: string[]): Promise<Record<string, DocumentFacts>> {
  const ids = [...new Set(documentIds)].slice(0, MAX_DOCUMENT_LOOKUPS)
  const entries = await Promise.all(
    ids.map(async (id) => {
      const state = await load(store, documentDecider, streams.document(id))
      return state.status === 'uploaded'
        ? [[id, { organizationId: state.organizationId, customerId: state.customerId, contentType: state.contentType }] as const]
        : []
    }),
  )
  return Object.fromEntries(entries.flat())
}

export async function loadAgreementFacts(store: EventStore, agreementId: string | undefined): Promise<Record<string, AgreementFacts>> {
  if (agreementId === undefined) return {}
  const state = await load(store, termsDecider, streams.termsAgreement(agreementId))
  return state.status === 'generated' ? { [agreementId]: { organizationId: state.organizationId, customerId: state.customerId } } : {}
}
