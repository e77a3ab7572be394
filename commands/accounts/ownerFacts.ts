// The owner of a new account: a customer of the caller's organization that can still hold accounts
// (not archived, personal data not erased), read from its stream so decide() stays pure.
import type { FastifyRequest } from 'fastify'
import { conflict } from '../../domain/errors.js'
import { requireCustomer, requireNotErased } from '../../domain/customer/guards.js'
import type { Customer } from '../../domain/customer/state.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { loadCustomer } from '../customers/facts.js'
import { scopedCustomerId } from '../customers/scope.js'

export async function accountOwner(commands: Commands, organizationId: string, customerId: string): Promise<Customer> {
  const customer = requireCustomer(await loadCustomer(commands, customerId), { organizationId, customerId })
  requireNotErased(customer)
  if (customer.status === 'ARCHIVED') throw conflict('customer_archived', `Customer ${customerId} is archived; it cannot open accounts`)
  return customer
}

/** The body's customer (or the X-On-Behalf-Of one), checked; undefined for the organization's own account. */
export async function optionalOwner(
  request: FastifyRequest,
  commands: Commands,
  organizationId: string,
  customerId: string | undefined,
): Promise<Customer | undefined> {
  const id = scopedCustomerId(request, customerId)
  return id === undefined ? undefined : accountOwner(commands, organizationId, id)
}
