// GET /v1/audit/resources/{id}?revision=N | ?asOf=<time>: a resource as it stood then, folded from its
// stream with its projector's own steps (projections/audit/resourceFolds.ts) and shown in the very JSON
// its live read answers (resourceJson.ts). Which event it stands at goes in response headers, so the
// body stays the live read's. Customer, account, balance, transfer, FX trade, agent, invoice, endpoint.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ACCOUNT_ID_PREFIXES } from '../../domain/account/accountKinds.js'
import { DomainError, invalid, notFound } from '../../domain/errors.js'
import { ID_PREFIXES } from '../../domain/shared/ids.js'
import { errorResponses } from '../../http/errorBody.js'
import { principalOf } from '../../http/principal.js'
import type { AuditReads, FoldPoint } from '../../projections/audit/auditReads.js'
import { AUDIT_RESOURCE_TYPES, type AuditResourceType } from '../../projections/audit/resourceFolds.js'
import { AUDIT_TAGS, auditResourceParams } from './auditParams.js'
import { AS_OF_RESOURCE_SCHEMAS, resourceJson } from './resourceJson.js'

/** The headers that say where the answer stands: the resource type, its stream, the revision and time of its last event folded. */
export const AS_OF_HEADERS = {
  resourceType: 'resource-type',
  stream: 'resource-stream',
  revision: 'resource-revision',
  recordedAt: 'resource-recorded-at',
} as const

/** The resource type an id names when the query names none, by its prefix. */
const TYPE_OF_PREFIX: Readonly<Record<string, AuditResourceType>> = {
  [ID_PREFIXES.customer]: 'CUSTOMER',
  ...Object.fromEntries(ACCOUNT_ID_PREFIXES.map((prefix) => [prefix, 'ACCOUNT' as const])),
  [ID_PREFIXES.transfer]: 'TRANSFER',
  [ID_PREFIXES.agent]: 'AGENT',
  [ID_PREFIXES.invoice]: 'INVOICE',
  [ID_PREFIXES.webhookEndpoint]: 'WEBHOOK_ENDPOINT',
}

const LABELS: Readonly<Record<AuditResourceType, string>> = {
  CUSTOMER: 'Customer',
  ACCOUNT: 'Account',
  BALANCE: 'Account',
  TRANSFER: 'Transfer',
  FX_TRADE: 'Trade',
  AGENT: 'Agent',
  INVOICE: 'Invoice',
  WEBHOOK_ENDPOINT: 'Webhook endpoint',
}

export const asOfQuery = z
  .object({
    revision: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,14})$/, 'a revision: 0 or a positive integer')
      .optional()
      .describe('The resource after the event of this revision of its stream (from 0), and none later'),
    asOf: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('The resource after every event of its stream recorded at or before this time (RFC 3339, with Z or an offset)'),
    resourceType: z
      .enum(AUDIT_RESOURCE_TYPES)
      .optional()
      .describe(
        'Which resource of the id: by default its prefix says (cus_ CUSTOMER, acc_/vba_/inw_/ewa_/eba_/vwa_ ACCOUNT, tfr_ TRANSFER, ' +
          'agt_ AGENT, inv_ INVOICE, ep_ WEBHOOK_ENDPOINT); BALANCE reads a balance account’s balance, FX_TRADE the trade of a tfr_ id',
      ),
  })
  .refine((q) => (q.revision === undefined) !== (q.asOf === undefined), {
    message: 'give exactly one of revision and asOf',
    path: ['revision'],
  })

function pointOf(query: { revision?: string | undefined; asOf?: string | undefined }): FoldPoint {
  if (query.revision !== undefined) return { revision: BigInt(query.revision) }
  if (query.asOf !== undefined) return { asOf: new Date(query.asOf) }
  throw new Error('the query schema admits exactly one of revision and asOf')
}

function typeOf(id: string, named: AuditResourceType | undefined): AuditResourceType {
  if (named !== undefined) return named
  const type = TYPE_OF_PREFIX[id.slice(0, id.indexOf('_'))]
  if (type !== undefined) return type
  throw invalid('as_of_not_supported', `Resource ${id} cannot be read as of a revision or a time: name a resourceType`, [
    { field: 'query.resourceType', message: `required for this id; one of ${AUDIT_RESOURCE_TYPES.join(', ')}` },
  ])
}

export const auditAsOfRoutes: FastifyPluginAsyncZod<{ reads: AuditReads }> = async (app, { reads }) => {
  app.get(
    '/audit/resources/:id',
    {
      schema: {
        operationId: 'getResourceAsOf',
        tags: AUDIT_TAGS,
        summary: 'A resource as it stood at a revision of its stream or at a time, in the JSON of its live read',
        description:
          'Exactly one of revision and asOf (400 otherwise). The body is what the live GET of the resource answered then ' +
          '(GET /v1/customers/{id}, /v1/accounts/{id}, /v1/accounts/{id}/balance, /v1/transfers/{id}, /v1/fx/trades/{tradeId}, ' +
          '/v1/agents/{id}, /v1/invoices/{id}, /v1/webhooks/endpoints/{endpointId}), rebuilt from its events. Headers: ' +
          'Resource-Type, Resource-Stream, Resource-Revision (the revision of the last event folded) and Resource-Recorded-At ' +
          '(its time). 404 resource_not_found: no such resource of the organization (another organization’s too); 404 ' +
          'resource_not_yet_created: asOf is before its first event; 404 resource_deleted: it was deleted by then. 422 ' +
          'revision_out_of_range: past its last revision; 422 account_holds_no_balance (BALANCE of an account without one); ' +
          '422 as_of_not_supported: an id of another kind; 422 audit_history_too_long: more events to fold than one request does.',
        params: auditResourceParams,
        querystring: asOfQuery,
        response: {
          200: z.union(AS_OF_RESOURCE_SCHEMAS).describe('The resource, as its live read shows it'),
          ...errorResponses(403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params
      const { revision, asOf } = request.query
      const type = typeOf(id, request.query.resourceType)
      const outcome = await reads.asOf(principalOf(request).organizationId, id, type, pointOf(request.query))
      const label = LABELS[type]
      switch (outcome.kind) {
        case 'not_found':
          throw notFound(label, id)
        case 'not_yet_created':
          throw new DomainError(
            'not_found',
            'resource_not_yet_created',
            `${label} ${id} did not exist yet at ${asOf}: its first event was recorded at ${outcome.firstRecordedAt.toISOString()}`,
          )
        case 'revision_out_of_range':
          throw invalid('revision_out_of_range', `${label} ${id} has no revision ${revision}`, [
            { field: 'query.revision', message: `its stream's last revision is ${outcome.lastRevision}`, value: revision },
          ])
        case 'too_long':
          throw invalid(
            'audit_history_too_long',
            `${label} ${id} has more than ${outcome.maxEvents} events to fold up to that point: read its events instead`,
          )
        case 'folded':
          break
      }
      if (outcome.row === 'deleted') {
        throw new DomainError('not_found', 'resource_deleted', `${label} ${id} was deleted at revision ${outcome.revision}`)
      }
      if (outcome.row === 'holds_no_balance') {
        throw invalid('account_holds_no_balance', `Account ${id} does not hold a balance`, [
          { field: 'id', message: 'must be a balance account (holdsBalance true)', value: id },
        ])
      }
      reply
        .header(AS_OF_HEADERS.resourceType, type)
        .header(AS_OF_HEADERS.stream, outcome.stream)
        .header(AS_OF_HEADERS.revision, outcome.revision.toString())
        .header(AS_OF_HEADERS.recordedAt, outcome.recordedAt.toISOString())
      // JSON text the response schema describes, sent as it is (fastify skips serializing a string).
      return reply.type('application/json; charset=utf-8').send(resourceJson(type, outcome.row) as never)
    },
  )
}
