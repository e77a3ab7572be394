// Read routes of the liquidity facility: the facility, its draws (list, one) and its repayments
// (list, one). An open draw's fee is computed at the moment of the read (asOf).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { notFound } from '../../domain/errors.js'
import {
  DRAW_STATUSES,
  drawResource,
  liquidityFacilityResource,
  repaymentResource,
  toDrawResource,
  toRepaymentResource,
} from '../../domain/liquidity-facility/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { idParam } from '../../http/idParam.js'
import { cursorPageSchema, cursorQuery, toCursorPage } from '../../http/pagination/cursorPage.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type RepaymentRow, drawRowToView, findDraw, findRepayment, listDraws, listRepayments } from './queries.js'
import { liquidityFacilityReads } from './reads.js'

const TAGS = ['Liquidity']
const drawParams = idParam('drawId', 'drw_', 'Draw')
const repaymentParams = idParam('repaymentId', 'rpy_', 'Repayment')
const drawListQuery = cursorQuery.extend({
  status: z.enum(DRAW_STATUSES).optional().describe('Only draws in this status: OPEN or REPAID'),
})

const repaymentOf = (row: RepaymentRow) =>
  toRepaymentResource({
    repaymentId: row.id,
    currency: row.currency,
    amountMinor: row.amount,
    allocations: row.allocations,
    receivedAt: row.created_at.toISOString(),
  })

export const liquidityFacilityReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; clock: () => Date }> = async (
  app,
  { db, clock },
) => {
  const reads = liquidityFacilityReads(db)

  app.get(
    '/liquidity/facility',
    {
      schema: {
        operationId: 'getLiquidityFacility',
        tags: TAGS,
        summary: 'Read the liquidity facility (credit line)',
        description:
          'Every organization has one: an organization whose credit line was never configured (the operator configures it) reads ' +
          'as a zero limit lending USDC on Solana, and may already choose its payout treasury.',
        response: { 200: liquidityFacilityResource, ...errorResponses() },
      },
    },
    async (request) => reads.facility(principalOf(request).organizationId, clock().toISOString()),
  )

  app.get(
    '/liquidity/facility/draws',
    {
      schema: {
        operationId: 'listDraws',
        tags: TAGS,
        summary: 'List the credit line draws, newest first',
        querystring: drawListQuery,
        response: { 200: cursorPageSchema(drawResource), ...errorResponses(422) },
      },
    },
    async (request) => {
      const asOf = clock().toISOString()
      const rows = await listDraws(db, principalOf(request).organizationId, request.query)
      const filters = new URLSearchParams(request.query.status ? { status: request.query.status } : {})
      return toCursorPage(rows, request.query, { path: '/v1/liquidity/facility/draws', filters }, (row) =>
        toDrawResource(drawRowToView(row), asOf),
      )
    },
  )

  app.get(
    '/liquidity/facility/draws/:drawId',
    {
      schema: {
        operationId: 'getDraw',
        tags: TAGS,
        summary: 'Read a credit line draw (its fee accrued so far)',
        params: drawParams,
        response: { 200: drawResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const row = await findDraw(db, principalOf(request).organizationId, request.params.drawId)
      if (!row) throw notFound('Draw', request.params.drawId)
      return toDrawResource(drawRowToView(row), clock().toISOString())
    },
  )

  app.get(
    '/liquidity/facility/repayments',
    {
      schema: {
        operationId: 'listRepayments',
        tags: TAGS,
        summary: 'List the credit line repayments, newest first',
        querystring: cursorQuery,
        response: { 200: cursorPageSchema(repaymentResource), ...errorResponses(422) },
      },
    },
    async (request) => {
      const rows = await listRepayments(db, principalOf(request).organizationId, request.query)
      return toCursorPage(rows, request.query, { path: '/v1/liquidity/facility/repayments' }, repaymentOf)
    },
  )

  app.get(
    '/liquidity/facility/repayments/:repaymentId',
    {
      schema: {
        operationId: 'getRepayment',
        tags: TAGS,
        summary: 'Read a credit line repayment (the draws it paid)',
        params: repaymentParams,
        response: { 200: repaymentResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const row = await findRepayment(db, principalOf(request).organizationId, request.params.repaymentId)
      if (!row) throw notFound('Repayment', request.params.repaymentId)
      return repaymentOf(row)
    },
  )
}
