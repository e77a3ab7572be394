// GET /v1/webhooks/messages (newest first, cursor pagination, filters) and
// GET /v1/webhooks/messages/{messageId} (payload, deliveries and every attempt).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { notFound } from '../../domain/errors.js'
import { PUBLIC_EVENT_TYPES } from '../../domain/publicEvents.js'
import { errorResponses } from '../../http/errorBody.js'
import { idParam } from '../../http/idParam.js'
import { cursorPageSchema, cursorQuery, toCursorPage } from '../../http/pagination/cursorPage.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { assertEndpointFilterKnown } from '../messages/endpointFilter.js'
import { attemptsOf, deliveriesOf, findMessage, listMessages } from '../messages/queries.js'
import { webhookMessageDetailResource, webhookMessageResource } from './resources.js'
import { toAttemptResource, toDeliveryResource, toMessageResource } from './toResources.js'
import { principalOf } from '../../http/principal.js'

const TAGS = ['Webhooks']
const knownTypes = new Set<string>(PUBLIC_EVENT_TYPES)

/** `eventTypes=a,b` or `eventTypes=a&eventTypes=b`. */
const splitTypes = (value: string | string[] | undefined) =>
  value === undefined
    ? []
    : [value]
        .flat()
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean)

const listQuery = cursorQuery.extend({
  endpointId: z
    .string()
    .max(64)
    .optional()
    .describe(
      "Only messages sent to this endpoint; adds that delivery's status to each item. 404 for an endpoint the organization never had",
    ),
  eventTypes: z
    .union([z.string().max(4_000), z.array(z.string().max(100)).max(WEBHOOK_LIMITS.maxEventTypesFilter)])
    .optional()
    .refine((v) => splitTypes(v).length <= WEBHOOK_LIMITS.maxEventTypesFilter, `at most ${WEBHOOK_LIMITS.maxEventTypesFilter} types`)
    .refine((v) => splitTypes(v).every((t) => knownTypes.has(t)), 'must be known event types')
    .describe('Comma-separated event types (or the parameter repeated)'),
  tag: z
    .string()
    .max(WEBHOOK_LIMITS.tagMaxLength)
    .optional()
    .describe('A resource id named in the payload, such as a transfer or customer id'),
  since: z.iso.datetime({ offset: true }).optional().describe('Messages from this time on (inclusive)'),
  until: z.iso.datetime({ offset: true }).optional().describe('Messages before this time (exclusive)'),
})

const messageParams = idParam('messageId', 'evt_', 'Message')

export const webhookMessageReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get(
    '/webhooks/messages',
    {
      schema: {
        operationId: 'listWebhookMessages',
        tags: TAGS,
        summary: 'List webhook messages, newest first',
        querystring: listQuery,
        response: { 200: cursorPageSchema(webhookMessageResource), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { endpointId, eventTypes, tag, since, until, ...page } = request.query
      const { organizationId } = principalOf(request)
      if (endpointId !== undefined) await assertEndpointFilterKnown(db, organizationId, endpointId)
      const rows = await listMessages(db, organizationId, page, {
        ...(endpointId !== undefined ? { endpointId } : {}),
        eventTypes: splitTypes(eventTypes),
        ...(tag !== undefined ? { tag } : {}),
        ...(since !== undefined ? { since: new Date(since) } : {}),
        ...(until !== undefined ? { until: new Date(until) } : {}),
      })
      // The page links must keep the filters, or the next page would list everything.
      const filters = new URLSearchParams()
      if (endpointId !== undefined) filters.set('endpointId', endpointId)
      if (eventTypes !== undefined) filters.set('eventTypes', splitTypes(eventTypes).join(','))
      if (tag !== undefined) filters.set('tag', tag)
      if (since !== undefined) filters.set('since', since)
      if (until !== undefined) filters.set('until', until)
      return toCursorPage(rows, page, { path: '/v1/webhooks/messages', filters }, toMessageResource)
    },
  )

  app.get(
    '/webhooks/messages/:messageId',
    {
      schema: {
        operationId: 'getWebhookMessage',
        tags: TAGS,
        summary: 'Read a webhook message with its payload, deliveries and every attempt',
        params: messageParams,
        response: { 200: webhookMessageDetailResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const message = await findMessage(db, principalOf(request).organizationId, request.params.messageId)
      if (!message) throw notFound('Webhook message', request.params.messageId)
      // One snapshot for both: read apart, a delivery could show SUCCEEDED without its last attempt.
      const { deliveries, attempts } = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => ({
          deliveries: await deliveriesOf(trx, message.id),
          attempts: await attemptsOf(trx, message.id),
        }))
      return {
        ...toMessageResource(message),
        deliveries: deliveries.map(toDeliveryResource),
        attempts: attempts.map(toAttemptResource),
      }
    },
  )
}
