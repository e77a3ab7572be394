// Sandbox: drive a transfer through the rails engine by hand, as an integrator or an operator
// would watch a real one move (403 in production):
//   simulate-deposit: the deposit a PENDING transfer waits for arrives (it moves to PROCESSING);
//     wires, ACH and SWIFT record a default sandbox remitter unless `originator` is given ({} keeps
//     none; ACH records only the name and routing number); crypto deposits none unless given;
//   advance: the rails engine's next step (start or complete the current leg, clear a review,
//     apply a sandbox trigger; a balance credit is applied now, as the transfer workflow would);
//     409 transfer_not_advanceable when it has none;
//   reverse: a completed transfer is returned by its rail (REVERSED, funds credited back); one into a
//     balance account first takes its credit back (409 transfer_not_reversible once it is spent);
//   platform-draft: a DRAFT the platform creates and holds in review (it cannot be submitted).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { conflict, invalid } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import { originatorBody } from './originatorBody.js'
import { sandboxOriginator } from '../../domain/rails/sandboxRemitter.js'
import { legTracking } from '../../domain/transfer/legTracking.js'
import { toTransferResource, transferResourceSchema } from '../../domain/transfer/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { createTransferBody } from '../../domain/transfer/createTransferBody.js'
import type { TransferRouteDeps } from '../transfers/deps.js'
import { newTransfer } from '../transfers/newTransfer.js'
import { freshTrackingPool } from '../transfers/trackingPool.js'
import { openedTransfer, transferCommands } from '../transfers/transferCommands.js'
import { loadTransfer } from '../transfers/transferFacts.js'
import { transferParams } from '../transfers/transferLifecycleRoutes.js'
import { sandboxOnly } from './sandboxOnly.js'
import { awaitingBalanceCredit } from '../../domain/transfer/moneyInTransit.js'
import { deliverToBalance } from '../transfers/balanceDelivery.js'
import { reclaimDelivery } from '../transfers/reclaimDelivery.js'
import { originFrom } from '../runtime/requestOrigin.js'

const TAGS = ['Sandbox']

const depositBody = z
  .object({ originator: originatorBody.optional().describe('The remitter as the rail reports it ({}: none)') })
  .strict()
  .nullish()

export const sandboxTransferSimulationRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, deps) => {
  const transfers = deps.commands.bind(transferCommands)
  sandboxOnly(app, deps.environment)
  const schema = (operationId: string, summary: string, description: string) => ({
    operationId,
    tags: TAGS,
    summary,
    description,
    headers: writeHeaders,
    params: transferParams,
    response: { 200: transferResourceSchema, ...errorResponses(403, 404, 409) },
  })

  app.post(
    '/sandbox/transfers/:id/simulate-deposit',
    {
      schema: {
        ...schema(
          'simulateTransferDeposit',
          'Simulate the deposit a transfer waits for',
          'The deposit of a PENDING transfer awaiting funds arrives; 409 otherwise.',
        ),
        body: depositBody,
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const s = await loadTransfer(deps.commands, organizationId, request.params.id, request.onBehalfOf)
      if (s.created.funding !== 'DEPOSIT')
        throw conflict('transfer_not_awaiting_funds', `Transfer ${request.params.id} is funded from a balance`)
      const now = new Date()
      const leg = s.legs[0]!
      const tracking = legTracking(leg, freshTrackingPool(now), { untrackedSwift: false, chargesFee: false })
      return transfers.handle(request, {
        type: 'FundTransfer',
        organizationId,
        transferId: request.params.id,
        now: now.toISOString(),
        onBehalfOf: request.onBehalfOf,
        method: 'DEPOSIT',
        accountId: null,
        holdId: null,
        fundingCustomerId: null,
        note: null,
        originator: sandboxOriginator(s.created.source.paymentRail, request.body?.originator, s.created.source.kind === 'CHAIN'),
        tracking,
      })
    },
  )

  app.post(
    '/sandbox/transfers/:id/advance',
    {
      schema: schema(
        'advanceTransfer',
        'Advance a transfer one step',
        'The rails engine’s next step now (a balance destination is credited now; refused, the money is held in suspense and the ' +
          'transfer IN_REVIEW); 409 transfer_not_advanceable when it has none, transfer_funds_held for money held after a reversal.',
      ),
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const s = await loadTransfer(deps.commands, organizationId, request.params.id, request.onBehalfOf)
      if (awaitingBalanceCredit(s)) {
        await deps.commands.readYourWrites(await deliverToBalance(deps.commands, s, originFrom(request)))
        return toTransferResource(await loadTransfer(deps.commands, organizationId, request.params.id, request.onBehalfOf))
      }
      const now = new Date()
      return transfers.handle(request, {
        type: 'AdvanceTransfer',
        organizationId,
        transferId: request.params.id,
        now: now.toISOString(),
        onBehalfOf: request.onBehalfOf,
        mode: { by: 'operator' },
        pool: freshTrackingPool(now),
      })
    },
  )

  app.post(
    '/sandbox/transfers/:id/reverse',
    {
      schema: schema(
        'reverseTransfer',
        'Reverse a completed transfer',
        'The rail returns a COMPLETED transfer: REVERSED, its money credited back. A transfer into a balance account takes its ' +
          'credit back from that account first: 409 transfer_not_reversible when the account no longer holds it (spent, or closed).',
      ),
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const s = await loadTransfer(deps.commands, organizationId, request.params.id, request.onBehalfOf)
      const reclaimed = s.status === 'COMPLETED' && (await reclaimDelivery(deps.commands, s, originFrom(request)))
      return transfers.handle(request, {
        type: 'ReverseTransfer',
        organizationId,
        transferId: request.params.id,
        now: new Date().toISOString(),
        onBehalfOf: request.onBehalfOf,
        code: 'reversal',
        reason: 'Reversed by the rail (sandbox)',
        reclaimed,
      })
    },
  )

  app.post(
    '/sandbox/transfers/platform-draft',
    {
      schema: {
        operationId: 'createPlatformDraftTransfer',
        tags: TAGS,
        summary: 'Create a platform-held draft',
        description: 'A DRAFT created by the platform and held in review: submitting it is 409 transfer_held_by_platform.',
        headers: writeHeaders,
        // A platform draft binds no transfer draft (those are the caller's, POST /v1/transfers).
        body: createTransferBody.omit({ draftId: true }),
        response: { 201: transferResourceSchema, ...errorResponses(403, 404, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      if (request.body.quoteId !== undefined)
        throw invalid(
          'quote_not_supported',
          'A platform draft is priced at the reference rate: create quoted transfers with POST /v1/transfers',
          [{ field: 'quoteId', message: 'omit it here', value: request.body.quoteId }],
        )
      const transferId = newId('tfr')
      const now = new Date()
      const planned = await newTransfer(request, deps, organizationId, transferId, { ...request.body, confirm: false }, now)
      const state = await transfers.handleToState(request, {
        type: 'CreateTransfer',
        organizationId,
        transferId,
        now: now.toISOString(),
        transfer: { ...planned, createdBy: 'PLATFORM', heldByPlatform: true },
      })
      return reply.code(201).send(toTransferResource(openedTransfer(state)))
    },
  )
}
