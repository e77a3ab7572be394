// Customer scoping of a request: with X-On-Behalf-Of, only that customer exists for the request.
import { notFound } from '../../domain/errors.js'

/** What scoping reads of a request: the X-On-Behalf-Of customer, when there is one. */
export type CustomerScope = { onBehalfOf?: string | undefined }

export function assertCustomerInScope(request: CustomerScope, customerId: string): void {
  if (request.onBehalfOf !== undefined && request.onBehalfOf !== customerId) throw notFound('Customer', customerId)
}

/** A customer id a body may name, defaulting to the X-On-Behalf-Of customer. */
export function scopedCustomerId(request: CustomerScope, customerId: string | undefined): string | undefined {
  if (customerId !== undefined) assertCustomerInScope(request, customerId)
  return customerId ?? request.onBehalfOf
}
