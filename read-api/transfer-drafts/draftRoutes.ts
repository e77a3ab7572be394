// GET /v1/transfer-drafts/{draftId}: the platform approval record of a registered draft. Another
// organization's draft, an unknown id, or another customer's under X-On-Behalf-Of, is a 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { notFound } from '../../domain/errors.js'
import { toTransferDraftResource, transferDraftResource } from '../../domain/transfer-draft/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'

export const transferDraftReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get(
    '/transfer-drafts/:draftId',
    {
      schema: {
        operationId: 'getTransferDraft',
        tags: ['Transfer drafts'],
        summary: 'Read a transfer draft’s approval record',
        description:
          'The platform approval record (tda_) of a registered draft of the organization: its draftHash, destinationAccountIds and ' +
          'status (PENDING_APPROVAL, SCREENING, APPROVED or REJECTED), and the transfer made from it once used. 404 for an unknown ' +
          'draft or another organization’s. The path takes the draft id (tdraft_), not the record’s.',
        params: idParam('draftId', 'tdraft_', 'Transfer draft'),
        headers: readHeaders,
        response: { 200: transferDraftResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { draftId } = request.params
      let query = db
        .selectFrom('transfer_drafts')
        .select('state')
        .where('organization_id', '=', principalOf(request).organizationId)
        .where('id', '=', draftId)
      if (request.onBehalfOf !== undefined) query = query.where('customer_id', '=', request.onBehalfOf)
      const row = await query.executeTakeFirst()
      if (!row) throw notFound('Transfer draft', draftId)
      return toTransferDraftResource(row.state)
    },
  )
}
