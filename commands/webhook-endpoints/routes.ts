// Write routes of webhook endpoints: create, update, delete, rotate the signing secret.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { errorResponses } from '../../domain/errors.js'
import { newId } from '../../domain/ids.js'
import { type WebhookEndpointCommand, type WebhookEndpointState, webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import {
  createWebhookEndpointBody, deletedResource, toWebhookEndpointResource, toWebhookSecretResource, updateWebhookEndpointBody, webhookEndpointResource, webhookSecretResource,
} from '../../domain/webhook-endpoint/resource.js'
import { generateSigningSecret } from '../../domain/webhook-endpoint/signingSecret.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { handleCommand } from '../runtime/handleCommand.js'
import { contextFrom } from '../runtime/requestContext.js'

export type WriteRouteDeps = {
  store: EventStore
  environment: 'sandbox' | 'production'
  /** Resolves once the read models reflect `position` (bounded wait). */
  waitForProjections: (position: Position | undefined) => Promise<boolean>
}

const endpointParams = z.object({ endpointId: z.string().max(64).describe('Endpoint id, prefix ep_') })
const idempotencyHeader = z.object({
  'idempotency-key': z.string().optional().describe('Makes retries safe for 24 hours; a replay returns the original response with Idempotent-Replayed: true'),
})
const TAGS = ['Webhooks']

function resourceOf(state: WebhookEndpointState) {
  if (state.status === 'none') throw new Error('endpoint state missing after a successful command')
  return toWebhookEndpointResource(state)
}

export const webhookEndpointWriteRoutes: FastifyPluginAsyncZod<WriteRouteDeps> = async (app, deps) => {
  async function run(command: WebhookEndpointCommand, request: Parameters<typeof contextFrom>[0]) {
    const result = await handleCommand(deps.store, webhookEndpointDecider, streams.webhookEndpoint(command.endpointId), command, contextFrom(request), {
      newStream: command.type === 'CreateWebhookEndpoint',
    })
    await deps.waitForProjections(result.position)
    return result.state
  }

  app.post('/webhooks/endpoints', {
    schema: {
      tags: TAGS,
      summary: 'Create a webhook endpoint',
      headers: idempotencyHeader,
      body: createWebhookEndpointBody,
      response: { 201: webhookEndpointResource, ...errorResponses(409, 422) },
    },
  }, async (request, reply) => {
    const state = await run({
      type: 'CreateWebhookEndpoint',
      organizationId: request.principal!.organizationId,
      endpointId: newId('ep'),
      now: new Date().toISOString(),
      environment: deps.environment,
      secret: generateSigningSecret(),
      ...request.body,
    }, request)
    return reply.code(201).send(resourceOf(state))
  })

  app.put('/webhooks/endpoints/:endpointId', {
    schema: {
      tags: TAGS,
      summary: 'Update a webhook endpoint (fields omitted stay as they are; disabled pauses deliveries)',
      headers: idempotencyHeader,
      params: endpointParams,
      body: updateWebhookEndpointBody,
      response: { 200: webhookEndpointResource, ...errorResponses(404, 409, 422) },
    },
  }, async (request) => {
    const state = await run({
      type: 'UpdateWebhookEndpoint',
      organizationId: request.principal!.organizationId,
      endpointId: request.params.endpointId,
      now: new Date().toISOString(),
      environment: deps.environment,
      ...request.body,
    }, request)
    return resourceOf(state)
  })

  app.delete('/webhooks/endpoints/:endpointId', {
    schema: {
      tags: TAGS,
      summary: 'Delete a webhook endpoint',
      headers: idempotencyHeader,
      params: endpointParams,
      response: { 200: deletedResource, ...errorResponses(404, 409) },
    },
  }, async (request) => {
    await run({ type: 'DeleteWebhookEndpoint', organizationId: request.principal!.organizationId, endpointId: request.params.endpointId, now: new Date().toISOString() }, request)
    return { id: request.params.endpointId, deleted: true as const }
  })

  app.post('/webhooks/endpoints/:endpointId/secret/rotate', {
    schema: {
      tags: TAGS,
      summary: 'Rotate the signing secret; the previous one stays valid for 24 hours',
      headers: idempotencyHeader,
      params: endpointParams,
      response: { 200: webhookSecretResource, ...errorResponses(404, 409) },
    },
  }, async (request) => {
    const now = new Date()
    const state = await run({
      type: 'RotateWebhookEndpointSecret',
      organizationId: request.principal!.organizationId,
      endpointId: request.params.endpointId,
      now: now.toISOString(),
      secret: generateSigningSecret(),
    }, request)
    if (state.status === 'none') throw new Error('endpoint state missing after rotation')
    return toWebhookSecretResource(state.secrets, now)
  })
}
