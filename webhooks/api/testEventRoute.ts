// POST /v1/webhooks/endpoints/{endpointId}/test: stores a WebhookTestRequested event, which the
// subscriber turns into a `webhook.test` message for that one endpoint, delivered like any other.
import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { loadAggregate } from '../../commands/runtime/handleCommand.js'
import { toMetadata } from '../../commands/runtime/commandOrigin.js'
import { originFrom } from '../../commands/runtime/requestOrigin.js'
import { webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import { decideTestEvent } from '../../domain/webhook-endpoint/testEvent.js'
import { parseEventData } from '../../events/catalog.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { errorResponses } from '../../http/errorBody.js'
import { idempotencyHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { messageIdOf } from '../envelope.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { testEventBody, testEventResult } from './resources.js'
import { principalOf } from '../../http/principal.js'

export type TestEventDeps = {
  store: EventStore
  waitForMessages: (position: Position | undefined, timeoutMs: number) => Promise<boolean>
}

/** One stream per test request: the endpoint's own stream stays free of test traffic. */
const testStream = (eventId: string) => `webhook_test-${eventId}`

const endpointParams = idParam('endpointId', 'ep_', 'Endpoint')

export const webhookTestEventRoute: FastifyPluginAsyncZod<TestEventDeps> = async (app, deps) => {
  app.post(
    '/webhooks/endpoints/:endpointId/test',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Send a test event (type webhook.test) to one endpoint, signed and retried like any delivery',
        headers: idempotencyHeaders,
        params: endpointParams,
        body: testEventBody,
        response: { 202: testEventResult, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { endpointId } = request.params
      const organizationId = principalOf(request).organizationId
      const { state } = await loadAggregate(deps.store, webhookEndpointDecider, streams.webhookEndpoint(endpointId))
      const eventType = request.body?.eventType ?? 'webhook.test'
      const event = decideTestEvent(state, { organizationId, endpointId, eventType, now: new Date().toISOString() })
      const eventId = randomUUID()
      const appended = await deps.store.appendToStream(
        testStream(eventId),
        [
          {
            id: eventId,
            type: event.type,
            data: parseEventData(event.type, event.data),
            metadata: toMetadata(originFrom(request)),
          },
        ],
        { expectedRevision: 'no_stream' },
      )
      // So a GET of the message right after this answer finds it.
      const stored = await deps.waitForMessages(appended.position, WEBHOOK_LIMITS.messageWaitMs)
      if (!stored) request.log.warn({ position: appended.position }, 'webhook subscriber did not store the test message in time')
      return reply.code(202).send({ messageId: messageIdOf(eventId), endpointId, eventType })
    },
  )
}
