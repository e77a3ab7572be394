// Erasure of a customer's personal data (crypto-shredding): the decision records who erased it,
// why and when (CustomerDataErased); a workflow then destroys the data key. Erasing an erased
// customer decides nothing, so a retried operator command or a late retention timer is a no-op.
// A deleted customer may still be erased (deleted before erasure existed, or by an operator).
import { notFound } from '../errors.js'
import type { CustomerCommandOf } from './commands.js'
import type { CustomerEvent, ErasureTrigger } from './events.js'
import type { Customer, CustomerState } from './state.js'

/** The reason a draft's deletion gives for erasing it. */
export const DELETION_ERASURE_REASON = 'deleted before submission'

export function erasureEvent(
  customerId: string,
  erasure: { trigger: ErasureTrigger; erasedBy: string; reason: string },
  now: string,
): CustomerEvent {
  return { type: 'CustomerDataErased', data: { customerId, erasedAt: now, ...erasure } }
}

export function decideErase(state: CustomerState, command: CustomerCommandOf<'EraseCustomerData'>): CustomerEvent[] {
  if (!(state.exists || state.deleted) || state.organizationId !== command.organizationId) throw notFound('Customer', command.customerId)
  if (state.erasedAt !== null) return []
  const { trigger, erasedBy, reason } = command
  return [erasureEvent(command.customerId, { trigger, erasedBy, reason }, command.now)]
}

/** A draft's deletion erases it in the same append (nothing of it is kept for compliance). */
export function erasureOnDelete(c: Customer, command: CustomerCommandOf<'DeleteCustomer'>): CustomerEvent[] {
  if (c.erasedAt !== null) return []
  return [
    erasureEvent(c.id, { trigger: 'DELETED_BEFORE_SUBMISSION', erasedBy: command.actor, reason: DELETION_ERASURE_REASON }, command.now),
  ]
}
