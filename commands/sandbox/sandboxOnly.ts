// The sandbox simulations' guard: in production they do not exist for anyone (403 sandbox_only),
// checked on request, before validation and idempotency.
import type { FastifyInstance } from 'fastify'
import { DomainError } from '../../domain/errors.js'
import type { Environment } from '../../domain/shared/environment.js'

export function sandboxOnly(app: Pick<FastifyInstance, 'addHook'>, environment: Environment): void {
  app.addHook('onRequest', async () => {
    if (environment === 'production')
      throw new DomainError('forbidden', 'sandbox_only', 'Sandbox simulations are not available in production')
  })
}
