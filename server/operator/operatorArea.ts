// The operator area (issue 30, point 4), inside /v1 under /v1/operator: deployment-wide reads for an
// operator key (server/auth/operatorScope.ts admits no other key, and an operator key nothing else).
// Consumers and their lag, dead letters, and any resource's masked event history; read-only (replays
// and skips stay with the CLI, where shell access is the authority).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { DomainError } from '../../domain/errors.js'
import type { EventStore } from '../../events/store/port.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { LagProbe } from '../observability/lagProbe.js'
import { operatorConsumersRoute } from './consumersRoute.js'
import { operatorParkedEventsRoute } from './parkedEventsRoute.js'
import { operatorResourceEventsRoute } from './resourceEventsRoute.js'

export type OperatorDeps = { db: Kysely<ReadDatabase>; lag: LagProbe; store: Pick<EventStore, 'readStream' | 'comparePositions'> }

export const operatorArea: FastifyPluginAsyncZod<OperatorDeps> = async (app, deps) => {
  // An operator acts for the deployment, never for one customer.
  app.addHook('onRequest', async (request) => {
    if (request.onBehalfOf !== undefined)
      throw new DomainError('forbidden', 'on_behalf_of_not_allowed', 'Operator routes are deployment-wide: omit X-On-Behalf-Of')
  })
  await app.register(operatorConsumersRoute, deps)
  await app.register(operatorParkedEventsRoute, deps)
  await app.register(operatorResourceEventsRoute, deps)
}
