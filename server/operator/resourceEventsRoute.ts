// GET /v1/operator/resources/{id}/events: a resource's event history in any organization, for an
// operator chasing a parked event or a support case, with the data masked exactly as
// GET /v1/audit/resources/{id}/events masks it (the same item shape, plus the organization).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { notFound } from '../../domain/errors.js'
import type { EventStore } from '../../events/store/port.js'
import { errorResponses } from '../../http/errorBody.js'
import { ID_PARAM_MAX_LENGTH } from '../../http/idParam.js'
import { decodeCursorVector, limitCursorPageSchema, limitCursorQuery, toLimitCursorPage } from '../../http/pagination/limitCursorPage.js'
import { AUDIT_HISTORY_PAGE_LIMITS, auditEventResource } from '../../read-api/audit/historyRoutes.js'
import { OPERATOR_TAGS } from './operatorTags.js'
import { operatorResourceHistory } from './resourceHistory.js'

const params = z.object({
  id: z
    .string()
    .min(1)
    .max(ID_PARAM_MAX_LENGTH)
    .describe('The id of any resource of any organization (cus_, acc_, tfr_, agt_, inv_, ep_, org_, ...)'),
})

const operatorEventResource = auditEventResource
  .extend({ organizationId: z.string().nullable().describe('The organization whose event it is') })
  .describe('A stored event as an operator reads it: masked as an auditor reads it')

export const operatorResourceEventsRoute: FastifyPluginAsyncZod<{ store: Pick<EventStore, 'readStream' | 'comparePositions'> }> = async (
  app,
  { store },
) => {
  app.get(
    '/operator/resources/:id/events',
    {
      schema: {
        operationId: 'listOperatorResourceEvents',
        tags: OPERATOR_TAGS,
        summary: 'Every event of a resource in any organization, oldest first (operator keys only)',
        description:
          'The events of every stream the id names, whichever organization’s, merged in the order they were recorded, each with ' +
          'its organization; data masked as GET /v1/audit/resources/{id}/events masks it. Page with `limit` and the `cursor` of ' +
          'the previous page’s next_cursor (a cursor of another list is 422 invalid_cursor). 404 for an id no stream has. ' +
          'Every other key is 403 operator_key_required.',
        params,
        querystring: limitCursorQuery(AUDIT_HISTORY_PAGE_LIMITS, 'oldest first'),
        response: { 200: limitCursorPageSchema(operatorEventResource, 'oldest first'), ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => {
      const { id } = request.params
      const list = { id: `operator_events:${id}`, path: `/v1/operator/resources/${encodeURIComponent(id)}/events` }
      const from = request.query.cursor === undefined ? {} : decodeCursorVector(list.id, request.query.cursor)
      const items = await operatorResourceHistory(store, id, from, request.query.limit)
      if (!items) throw notFound('Resource', id)
      return toLimitCursorPage(
        items,
        request.query,
        list,
        (item) => item.after,
        (item) => ({ ...item.view, organizationId: item.organizationId }),
      )
    },
  )
}
