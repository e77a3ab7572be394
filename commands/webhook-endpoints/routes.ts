// Write routes of webhook endpoints: create, update, delete, rotate the signing secret.
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { errorResponses, invalid } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import { type WebhookEndpointCommand, type WebhookEndpointState, webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import {
  createWebhookEndpointBody, deletedResource, toWebhookEndpointResource, toWebhookSecretResource, updateWebhookEndpointBody, webhookEndpointResource, webhookSecretResource,
} from '../../domain/webhook-endpoint/resource.js'
import { generateSigningSecret } from '../../domain/webhook-endpoint/signingSecret.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { createEndpointAllowance } from './endpointAllowance.js'
import { handleCommand } from '../runtime/handleCommand.js'
import { contextFrom } from '../runtime/requestContext.js'
import type { Environment } from '../../domain/shared/environment.js'

/** The egress policy's verdict on a URL; `detail` names what was refused, for the server log only. */
export type EndpointUrlVerdict = { allowed: true } | { allowed: false; refusal: { kind: 'invalid' | 'scheme' | 'credentials' | 'address'; detail: string } }

export type WriteRouteDeps = {
  store: EventStore
  environment: Environment
  /** Checks a URL against the egress policy, DNS included (a port, so the decider stays pure and tests inject DNS). */
  checkUrl: (url: string) => Promise<EndpointUrlVerdict>
  /** The organization's endpoints now (read model), and how many it may have. */
  countEndpoints: (organizationId: string) => Promise<number>
  maxEndpointsPerOrganization: number
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

function urlRefusalError(kind: Exclude<EndpointUrlVerdict, { allowed: true }>['refusal']['kind'], environment: WriteRouteDeps['environment']) {
  if (kind === 'scheme') {
    return invalid('webhook_url_https_required', 'Webhook endpoints must use https in production', [{ field: 'body.url', message: 'must be an https URL in production' }])
  }
  const reachable = environment === 'production' ? 'a public address' : 'a public or loopback address'
  const message = {
    invalid: 'must be a valid URL',
    credentials: 'must not contain a user name or password',
    address: `must reach ${reachable}: private, loopback, link-local and metadata addresses are refused, however written, and so are names that resolve to them`,
  }[kind]
  return invalid('webhook_url_not_allowed', `The webhook URL is not allowed: it ${message}`, [{ field: 'body.url', message }])
}

export const webhookEndpointWriteRoutes: FastifyPluginAsyncZod<WriteRouteDeps> = async (app, deps) => {
  const allowance = createEndpointAllowance({ count: deps.countEndpoints, max: deps.maxEndpointsPerOrganization })
  /** Refuses with 422 what the egress policy can tell now; the resolved address stays in the log. */
  async function assertUrlAllowed(url: string, request: FastifyRequest, endpointId?: string): Promise<void> {
    const verdict = await deps.checkUrl(url)
    if (verdict.allowed) return
    request.log.info({ refusal: verdict.refusal.detail, ...(endpointId ? { endpointId } : {}) }, 'webhook endpoint URL refused by the egress policy')
    throw urlRefusalError(verdict.refusal.kind, deps.environment)
  }

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
      summary: 'Create a webhook endpoint (at most WEBHOOK_ENDPOINTS_PER_ORGANIZATION, default 500, per organization: 422 webhook_endpoint_limit_reached past it)',
      headers: idempotencyHeader,
      body: createWebhookEndpointBody,
      response: { 201: webhookEndpointResource, ...errorResponses(409, 422) },
    },
  }, async (request, reply) => {
    if (!(await allowance.hasRoom(request.principal!.organizationId))) {
      throw invalid('webhook_endpoint_limit_reached', `An organization may have at most ${deps.maxEndpointsPerOrganization} webhook endpoints; delete one first`)
    }
    await assertUrlAllowed(request.body.url, request)
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
    if (request.body.url !== undefined) await assertUrlAllowed(request.body.url, request, request.params.endpointId)
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
