// Counterparty aggregate: a customer's payee (a beneficiary of its external accounts). Created,
// then deleted; nothing else changes it (a different beneficiary is a different counterparty).
//
//   none --CreateCounterparty--> active --DeleteCounterparty--> deleted
//
// Create needs the customer's facts (read from its stream by the command layer): the customer
// exists in the caller's organization (else 404, as for a missing one), is not ARCHIVED and its
// data was not erased (409). Delete is refused while an account in review or active uses it.
import type { Decider } from '../decider.js'
import { DomainError, assertInvariant, conflict, notFound } from '../errors.js'
import type { Address } from '../shared/address.js'
import type { BeneficiaryType } from './enums.js'
import type { CounterpartyEvent } from './events.js'

export type Counterparty = {
  status: 'active' | 'deleted'
  id: string
  organizationId: string
  customerId: string
  name: string
  beneficiaryType: BeneficiaryType
  address: Address | null
  isThirdParty: boolean
  metadata: Record<string, unknown>
  createdAt: string
  updatedAt: string
}

export type CounterpartyState = { status: 'none' } | Counterparty

/** What a creation needs to know of the customer, read from the customer's stream. */
export type CustomerFacts = { exists: false } | { exists: true; organizationId: string; archived: boolean; erased: boolean }

type Scoped = { organizationId: string; counterpartyId: string; now: string }

export type CounterpartyCommand =
  | (Scoped & {
      type: 'CreateCounterparty'
      customerId: string
      customer: CustomerFacts
      name: string
      beneficiaryType: BeneficiaryType
      address: Address | null
      isThirdParty: boolean
      metadata: Record<string, unknown>
    })
  | (Scoped & {
      type: 'DeleteCounterparty'
      /** X-On-Behalf-Of: another customer's counterparty is not visible. */
      onBehalfOf: string | undefined
      /** Whether an account in review or active names this counterparty (the accounts read model). */
      inUse: boolean
    })

/** Refuses a creation for a customer that is missing, another organization's, archived or erased. */
export function assertCustomerAcceptsCounterparties(customerId: string, organizationId: string, customer: CustomerFacts): void {
  if (!customer.exists || customer.organizationId !== organizationId) throw notFound('Customer', customerId)
  if (customer.erased)
    throw conflict('customer_erased', `The personal data of customer ${customerId} was erased; it takes no new counterparties`)
  if (customer.archived) throw conflict('customer_archived', `Customer ${customerId} is archived; it takes no new counterparties`)
}

export const counterpartyDecider: Decider<CounterpartyState, CounterpartyCommand, CounterpartyEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateCounterparty') {
      if (state.status !== 'none')
        throw new DomainError('conflict', 'resource_already_exists', `Counterparty ${command.counterpartyId} already exists`)
      assertCustomerAcceptsCounterparties(command.customerId, command.organizationId, command.customer)
      return [
        {
          type: 'CounterpartyCreated',
          data: {
            counterpartyId: command.counterpartyId,
            organizationId: command.organizationId,
            customerId: command.customerId,
            name: command.name,
            beneficiaryType: command.beneficiaryType,
            address: command.address,
            isThirdParty: command.isThirdParty,
            metadata: command.metadata,
            createdAt: command.now,
          },
        },
      ]
    }
    // Another organization's (or, on behalf of a customer, another customer's) counterparty is
    // indistinguishable from a missing one.
    if (
      state.status !== 'active' ||
      state.organizationId !== command.organizationId ||
      (command.onBehalfOf !== undefined && state.customerId !== command.onBehalfOf)
    )
      throw notFound('Counterparty', command.counterpartyId)
    if (command.inUse)
      throw conflict(
        'counterparty_in_use',
        `Counterparty ${command.counterpartyId} is used by an account in review or active; close the account first`,
      )
    return [{ type: 'CounterpartyDeleted', data: { counterpartyId: command.counterpartyId, deletedAt: command.now } }]
  },

  evolve(state, event) {
    if (event.type === 'CounterpartyCreated') {
      const d = event.data
      return {
        status: 'active',
        id: d.counterpartyId,
        organizationId: d.organizationId,
        customerId: d.customerId,
        name: d.name,
        beneficiaryType: d.beneficiaryType,
        address: d.address,
        isThirdParty: d.isThirdParty,
        metadata: d.metadata,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      }
    }
    assertInvariant(state.status !== 'none', `${event.type} before CounterpartyCreated`)
    return { ...state, status: 'deleted', updatedAt: event.data.deletedAt }
  },
}
