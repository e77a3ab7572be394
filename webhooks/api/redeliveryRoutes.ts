// POST /v1/webhooks/messages/{messageId}/resend and POST /v1/webhooks/endpoints/{endpointId}/recover.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { type Kysely, sql } from 'kysely'
import { invalid, notFound } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import { errorResponses } from '../../http/errorBody.js'
import { idempotencyHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { findMessage } from '../messages/queries.js'
import { requeueMessage } from '../messages/requeue.js'
import { enabledEndpoint, resendTargets } from '../messages/resendTargets.js'
import { recoverBody, recoverResult, resendBody, resendResult } from './resources.js'
import { principalOf } from '../../http/principal.js'

export type RedeliveryDeps = { db: Kysely<ReadDatabase>; wakeDispatcher: () => void }

const TAGS = ['Webhooks']
const messageParams = idParam('messageId', 'evt_', 'Message')
const endpointParams = idParam('endpointId', 'ep_', 'Endpoint')

const newRecoveryId = () => `rcv_${newId('req').slice('req_'.length)}`

export const webhookRedeliveryRoutes: FastifyPluginAsyncZod<RedeliveryDeps> = async (app, { db, wakeDispatcher }) => {
  app.post(
    '/webhooks/messages/:messageId/resend',
    {
      schema: {
        operationId: 'resendWebhookMessage',
        tags: TAGS,
        summary: "Redeliver a message's original payload (same id) to every enabled subscribed endpoint, or to one",
        headers: idempotencyHeaders,
        params: messageParams,
        body: resendBody,
        response: { 202: resendResult, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const message = await findMessage(db, principalOf(request).organizationId, request.params.messageId)
      if (!message) throw notFound('Webhook message', request.params.messageId)
      const endpointIds = await resendTargets(db, message, request.body?.endpointId)
      await requeueMessage(
        db,
        { id: message.id, organizationId: message.organization_id, seq: message.seq, createdAt: message.created_at },
        endpointIds,
      )
      wakeDispatcher()
      return reply.code(202).send({ messageId: message.id, endpointIds })
    },
  )

  app.post(
    '/webhooks/endpoints/:endpointId/recover',
    {
      schema: {
        operationId: 'recoverWebhookEndpointDeliveries',
        tags: TAGS,
        summary: 'Redeliver, in the background, every failed delivery to the endpoint of messages since a time',
        headers: idempotencyHeaders,
        params: endpointParams,
        body: recoverBody,
        response: { 202: recoverResult, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const organizationId = principalOf(request).organizationId
      const endpointId = await enabledEndpoint(db, organizationId, request.params.endpointId)
      const since = new Date(request.body.since)
      const until = request.body.until ? new Date(request.body.until) : new Date()
      if (since >= until)
        throw invalid('invalid_time_range', 'since must be before until', [
          { field: 'body.since', message: 'must be before until', value: request.body.since },
        ])
      const row = await db
        .insertInto('webhook_recoveries')
        .values({
          id: newRecoveryId(),
          organization_id: organizationId,
          endpoint_id: endpointId,
          since,
          until,
          status: 'RUNNING',
          created_at: sql<Date>`now()`,
          completed_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      wakeDispatcher()
      return reply
        .code(202)
        .send({ id: row.id, endpointId, since: row.since.toISOString(), until: row.until.toISOString(), status: row.status })
    },
  )
}
