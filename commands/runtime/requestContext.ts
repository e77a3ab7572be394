// Builds a command's context from an authenticated HTTP request.
import type { FastifyRequest } from 'fastify'
import type { CommandContext } from './commandContext.js'

export function contextFrom(request: FastifyRequest): CommandContext {
  const principal = request.principal
  if (!principal) throw new Error('contextFrom needs an authenticated request')
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
