// GET /v1/audit/resources/{id}/events: every event of a resource, oldest first, as an auditor reads it
// (events/history/auditEventView.ts), cursor-paged. One id can name several streams (an FX trade and
// its transfer, an agent and its spend): their events come merged in the order of $all, each naming
// its stream and revision. A resource of another organization, or none, is a 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { notFound } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { decodeCursorVector, limitCursorPageSchema, limitCursorQuery, toLimitCursorPage } from '../../http/pagination/limitCursorPage.js'
import { principalOf } from '../../http/principal.js'
import type { AuditReads } from '../../projections/audit/auditReads.js'
import { AUDIT_TAGS, auditResourceParams } from './auditParams.js'

/** Events per page: a bounded page like every list (spec Limits: page sizes 1 to 1000). */
export const AUDIT_HISTORY_PAGE_LIMITS = { min: 1, max: 1000, default: 100 } as const

const nullableText = (description: string) => z.string().nullable().describe(description)

export const auditEventResource = z
  .object({
    id: z.string().describe('The stored event id (UUID), unique forever; a webhook message of it is evt_ + this id without dashes'),
    stream: z.string().describe('Its stream, <category>-<resource id> (transfer-tfr_..., fx_trade-tfr_...)'),
    type: z.string().describe('The stored event type (TransferCreated, ...)'),
    revision: z.number().int().describe('Its place in its stream, from 0'),
    position: z.string().describe('Its place in the whole log (opaque; orders events across streams)'),
    recordedAt: z.string().describe('When the store recorded it (ISO 8601, milliseconds)'),
    hash: nullableText('Its link in the stream’s hash chain (SHA-256, hex); null for an event stored before the chain existed'),
    schemaVersion: z.number().int().describe('The version of its type’s data it was written in (docs/events.md)'),
    data: z
      .record(z.string(), z.unknown())
      .describe(
        'The data as written (not upcast): signing secrets and key hashes [redacted], sensitive fields masked to their last four ' +
          'characters, an erased customer’s [erased]',
      ),
    metadata: z
      .object({
        actor: nullableText(
          'Who acted: an API key id (key_), an agent key id (agk_), system:workflow:<name>, system:scheduler, cli:<user>',
        ),
        keyId: nullableText('The key whose request appended it (the actor when the actor is a key); null for workflows, timers, operators'),
        requestId: nullableText('The request that caused it (a workflow’s events keep the request of the event that started it)'),
        idempotencyKey: nullableText('The Idempotency-Key of that request, when it sent one'),
        causationId: nullableText('What directly caused it: a request id, or the id of the event a workflow reacted to'),
        correlationId: nullableText('The request (or X-Correlation-Id) every event of one business flow shares'),
        onBehalfOf: nullableText('The customer the request acted for (X-On-Behalf-Of), when it named one'),
        commandId: nullableText('A workflow or timer command’s deterministic id (it runs once per stream)'),
      })
      .describe('Who and what caused the event'),
  })
  .describe('A stored event as an auditor reads it')

export const auditHistoryRoutes: FastifyPluginAsyncZod<{ reads: AuditReads }> = async (app, { reads }) => {
  app.get(
    '/audit/resources/:id/events',
    {
      schema: {
        operationId: 'listResourceEvents',
        tags: AUDIT_TAGS,
        summary: 'Every event of a resource, oldest first, with who caused it (cursor paging)',
        description:
          'The events of every stream the id names (an FX trade and its transfer, an agent and its spend, a customer and its trade ' +
          'slots), merged in the order they were recorded across the log. Page with `limit` and the `cursor` of the previous ' +
          "page's next_cursor; a cursor of another list or altered is 422 invalid_cursor. 404 for an id no stream of the " +
          "organization's has (another organization's too). Auditor keys and full keys read it; agent keys are 403.",
        params: auditResourceParams,
        querystring: limitCursorQuery(AUDIT_HISTORY_PAGE_LIMITS, 'oldest first'),
        response: { 200: limitCursorPageSchema(auditEventResource, 'oldest first'), ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => {
      const { id } = request.params
      const list = { id: `audit_events:${id}`, path: `/v1/audit/resources/${encodeURIComponent(id)}/events` }
      const from = request.query.cursor === undefined ? {} : decodeCursorVector(list.id, request.query.cursor)
      const items = await reads.history(principalOf(request).organizationId, id, from, request.query.limit)
      if (!items) throw notFound('Resource', id)
      return toLimitCursorPage(
        items,
        request.query,
        list,
        (item) => item.after,
        (item) => item.view,
      )
    },
  )
}
