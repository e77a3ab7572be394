// Write routes of webhook endpoints: create, update, delete, rotate the signing secret.
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { invalid } from '../../domain/errors.js'
import { deletedResource } from '../../http/deletedResource.js'
import { errorResponses } from '../../http/errorBody.js'
import { idempotencyHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { newId } from '../../domain/shared/ids.js'
import { type WebhookEndpointState, webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import {
  createWebhookEndpointBody,
  toWebhookEndpointResource,
  toWebhookSecretResource,
  updateWebhookEndpointBody,
  webhookEndpointResource,
  webhookSecretResource,
} from '../../domain/webhook-endpoint/resource.js'
import { generateSigningSecret } from '../../domain/webhook-endpoint/signingSecret.js'
import { streams } from '../../events/streams.js'
import { principalOf } from '../../http/principal.js'
import { createEndpointAllowance } from './endpointAllowance.js'
import { type CommandRuntime, deciderBinding } from '../runtime/commandRuntime.js'
import type { Environment } from '../../domain/shared/environment.js'

/** The egress policy's verdict on a URL; `detail` names what was refused, for the server log only. */
export type EndpointUrlVerdict =
  | { allowed: true }
  | { allowed: false; refusal: { kind: 'invalid' | 'scheme' | 'credentials' | 'address' | 'unresolvable'; detail: string } }

export type WebhookEndpointRouteDeps = {
  commands: CommandRuntime
  environment: Environment
  webhookEndpoints: {
    /** Checks a URL against the egress policy, DNS included (a port, so the decider stays pure and tests inject DNS). */
    checkUrl: (url: string) => Promise<EndpointUrlVerdict>
    /** The organization's endpoints now (read model), and how many it may have. */
    count: (organizationId: string) => Promise<number>
    maxPerOrganization: number
  }
}

const endpointParams = idParam('endpointId', 'ep_', 'Endpoint')
const TAGS = ['Webhooks']

function resourceOf(state: WebhookEndpointState) {
  if (state.status === 'none') throw new Error('endpoint state missing after a successful command')
  return toWebhookEndpointResource(state)
}

export const webhookEndpointCommands = deciderBinding({
  decider: webhookEndpointDecider,
  streamOf: (command) => streams.webhookEndpoint(command.endpointId),
  startsStream: (command) => command.type === 'CreateWebhookEndpoint',
  toResource: resourceOf,
})

function urlRefusalError(kind: Exclude<EndpointUrlVerdict, { allowed: true }>['refusal']['kind'], environment: Environment) {
  if (kind === 'scheme') {
    return invalid('webhook_url_https_required', 'Webhook endpoints must use https in production', [
      { field: 'body.url', message: 'must be an https URL in production' },
    ])
  }
  if (kind === 'unresolvable') {
    return invalid('webhook_url_unresolvable', 'The webhook URL names a host that does not resolve', [
      { field: 'body.url', message: 'must name a host that resolves in DNS to a public address' },
    ])
  }
  const reachable = environment === 'production' ? 'a public address' : 'a public or loopback address'
  const message = {
    invalid: 'must be a valid URL',
    credentials: 'must not contain a user name or password',
    address:
      `must reach ${reachable}: private, loopback, link-local and metadata addresses are refused, however written, and so are ` +
      (environment === 'production'
        ? 'names that resolve to them and private-use names (.internal, .local, a single label)'
        : 'names that resolve to them'),
  }[kind]
  return invalid('webhook_url_not_allowed', `The webhook URL is not allowed: it ${message}`, [{ field: 'body.url', message }])
}

export const webhookEndpointWriteRoutes: FastifyPluginAsyncZod<WebhookEndpointRouteDeps> = async (app, deps) => {
  const { checkUrl, count, maxPerOrganization } = deps.webhookEndpoints
  const allowance = createEndpointAllowance({ count, max: maxPerOrganization })
  const endpoints = deps.commands.bind(webhookEndpointCommands)
  /** Refuses with 422 what the egress policy can tell now; the resolved address stays in the log. */
  async function assertUrlAllowed(url: string, request: FastifyRequest, endpointId?: string): Promise<void> {
    const verdict = await checkUrl(url)
    if (verdict.allowed) return
    request.log.info(
      { refusal: verdict.refusal.detail, ...(endpointId ? { endpointId } : {}) },
      'webhook endpoint URL refused by the egress policy',
    )
    throw urlRefusalError(verdict.refusal.kind, deps.environment)
  }

  app.post(
    '/webhooks/endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        tags: TAGS,
        summary:
          'Create a webhook endpoint (at most WEBHOOK_ENDPOINTS_PER_ORGANIZATION, default 500, per organization: 422 ' +
          'webhook_endpoint_limit_reached past it)',
        headers: idempotencyHeaders,
        body: createWebhookEndpointBody,
        response: { 201: webhookEndpointResource, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      if (!(await allowance.hasRoom(organizationId))) {
        throw invalid(
          'webhook_endpoint_limit_reached',
          `An organization may have at most ${maxPerOrganization} webhook endpoints; delete one first`,
        )
      }
      await assertUrlAllowed(request.body.url, request)
      const resource = await endpoints.handle(request, {
        type: 'CreateWebhookEndpoint',
        organizationId,
        endpointId: newId('ep'),
        now: new Date().toISOString(),
        environment: deps.environment,
        secret: generateSigningSecret(),
        ...request.body,
      })
      return reply.code(201).send(resource)
    },
  )

  app.put(
    '/webhooks/endpoints/:endpointId',
    {
      schema: {
        operationId: 'updateWebhookEndpoint',
        tags: TAGS,
        summary: 'Update a webhook endpoint (fields omitted stay as they are; disabled pauses deliveries)',
        headers: idempotencyHeaders,
        params: endpointParams,
        body: updateWebhookEndpointBody,
        response: { 200: webhookEndpointResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      if (request.body.url !== undefined) await assertUrlAllowed(request.body.url, request, request.params.endpointId)
      return endpoints.handle(request, {
        type: 'UpdateWebhookEndpoint',
        organizationId: principalOf(request).organizationId,
        endpointId: request.params.endpointId,
        now: new Date().toISOString(),
        environment: deps.environment,
        ...request.body,
      })
    },
  )

  app.delete(
    '/webhooks/endpoints/:endpointId',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags: TAGS,
        summary: 'Delete a webhook endpoint',
        headers: idempotencyHeaders,
        params: endpointParams,
        response: { 200: deletedResource, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      await endpoints.handleToState(request, {
        type: 'DeleteWebhookEndpoint',
        organizationId,
        endpointId: request.params.endpointId,
        now: new Date().toISOString(),
      })
      return { id: request.params.endpointId, deleted: true as const }
    },
  )

  app.post(
    '/webhooks/endpoints/:endpointId/secret/rotate',
    {
      schema: {
        operationId: 'rotateWebhookEndpointSecret',
        tags: TAGS,
        summary: 'Rotate the signing secret; the previous one stays valid for 24 hours',
        headers: idempotencyHeaders,
        params: endpointParams,
        response: { 200: webhookSecretResource, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const now = new Date()
      const state = await endpoints.handleToState(request, {
        type: 'RotateWebhookEndpointSecret',
        organizationId: principalOf(request).organizationId,
        endpointId: request.params.endpointId,
        now: now.toISOString(),
        secret: generateSigningSecret(),
      })
      if (state.status === 'none') throw new Error('endpoint state missing after rotation')
      return toWebhookSecretResource(state.secrets, now)
    },
  )
}
