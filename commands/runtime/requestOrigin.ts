// Builds a command's origin from an authenticated HTTP request.
import type { FastifyRequest } from 'fastify'
import { principalOf } from '../../http/principal.js'
import type { CommandOrigin } from './commandOrigin.js'

export function originFrom(request: FastifyRequest): CommandOrigin {
  const principal = principalOf(request)
  const idempotencyKey = request.headers['idempotency-key']
  const correlation = request.headers['x-correlation-id']
  return {
    organizationId: principal.organizationId,
    requestId: request.id,
    actor: principal.keyId,
    ...(typeof idempotencyKey === 'string' ? { idempotencyKey } : {}),
    causationId: request.id,
    correlationId: typeof correlation === 'string' && correlation.length <= 128 ? correlation : request.id,
    // Validated by server/auth/onBehalfOf.ts: a customer of the caller's organization.
    ...(request.onBehalfOf ? { onBehalfOf: request.onBehalfOf } : {}),
  }
}
