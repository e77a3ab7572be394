// POST /v1/webhooks/endpoints/{endpointId}/test: stores a WebhookTestRequested event, which the
// subscriber turns into a `webhook.test` message for that one endpoint, delivered like any other.
import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Commands } from '../../commands/runtime/commandRuntime.js'
import { originFrom } from '../../commands/runtime/requestOrigin.js'
import { webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import { webhookTestDecider } from '../../domain/webhook-endpoint/testEvent.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { errorResponses } from '../../http/errorBody.js'
import { idempotencyHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { messageIdOf } from '../envelope.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { testEventBody, testEventResult } from './resources.js'
import { principalOf } from '../../http/principal.js'

export type TestEventDeps = {
  commands: Commands
  waitForMessages: (position: Position | undefined, timeoutMs: number) => Promise<boolean>
}

/** One stream per test request: the endpoint's own stream stays free of test traffic. */
const testStream = (requestKey: string) => `webhook_test-${requestKey}`

const endpointParams = idParam('endpointId', 'ep_', 'Endpoint')

export const webhookTestEventRoute: FastifyPluginAsyncZod<TestEventDeps> = async (app, deps) => {
  app.post(
    '/webhooks/endpoints/:endpointId/test',
    {
      schema: {
        operationId: 'sendWebhookTestEvent',
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
      const { state: endpoint } = await deps.commands.load(webhookEndpointDecider, streams.webhookEndpoint(endpointId))
      const eventType = request.body?.eventType ?? 'webhook.test'
      const command = { type: 'RequestTestEvent' as const, organizationId, endpointId, eventType, now: new Date().toISOString(), endpoint }
      const appended = await deps.commands.handle(webhookTestDecider, testStream(randomUUID()), command, originFrom(request), {
        newStream: true,
      })
      const eventId = appended.eventIds[0]!
      // So a GET of the message right after this answer finds it.
      const stored = await deps.waitForMessages(appended.position, WEBHOOK_LIMITS.messageWaitMs)
      if (!stored) request.log.warn({ position: appended.position }, 'webhook subscriber did not store the test message in time')
      return reply.code(202).send({ messageId: messageIdOf(eventId), endpointId, eventType })
    },
  )
}
