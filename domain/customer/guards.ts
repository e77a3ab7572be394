// Preconditions shared by the customer decisions.
import { DomainError, conflict, notFound } from '../errors.js'
import type { CustomerStatus } from './enums.js'
import type { Customer, CustomerState } from './state.js'

/** The customer, or 404: another organization's customer is indistinguishable from a missing one. */
export function requireCustomer(state: CustomerState, command: { organizationId: string; customerId: string }): Customer {
  if (!state.exists || state.organizationId !== command.organizationId) throw notFound('Customer', command.customerId)
  return state
}

/** Verification data may change only while the customer is being prepared. */
export const EDITABLE_STATUSES: ReadonlySet<CustomerStatus> = new Set(['DRAFT', 'NEEDS_MORE_INFORMATION'])

export function requireEditable(c: Customer): void {
  if (!EDITABLE_STATUSES.has(c.status)) {
    throw conflict(
      'customer_not_editable',
      `Customer ${c.id} is ${c.status}; verification data can change only in DRAFT or NEEDS_MORE_INFORMATION`,
    )
  }
}

export function requireType(c: Customer, type: Customer['type']): void {
  if (c.type !== type) {
    throw new DomainError('conflict', 'customer_type_mismatch', `Customer ${c.id} is ${c.type}; this operation is for ${type} customers`)
  }
}

/** Nothing personal may be written for a customer whose data was erased (its data key is gone). */
export function requireNotErased(c: Customer): void {
  if (c.erasedAt !== null) {
    throw conflict('customer_erased', `The personal data of customer ${c.id} was erased at ${c.erasedAt}; it can no longer change`)
  }
}
