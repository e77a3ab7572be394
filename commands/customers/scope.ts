// Customer scoping of a request: with X-On-Behalf-Of, only that customer exists for the request.
import type { FastifyRequest } from 'fastify'
import { notFound } from '../../domain/errors.js'

export function assertCustomerInScope(request: FastifyRequest, customerId: string): void {
  if (request.onBehalfOf !== undefined && request.onBehalfOf !== customerId) throw notFound('Customer', customerId)
}

/** A customer id a body may name, defaulting to the X-On-Behalf-Of customer. */
export function scopedCustomerId(request: FastifyRequest, customerId: string | undefined): string | undefined {
  if (customerId !== undefined) assertCustomerInScope(request, customerId)
  return customerId ?? request.onBehalfOf
}
