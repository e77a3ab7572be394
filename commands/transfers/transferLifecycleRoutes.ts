// A transfer's caller operations after create: submit a DRAFT, cancel one not yet funded, fund one
// awaiting its deposit from a customer's balance (the spec's fund-from-balance). Each answers the
// transfer; each refusal of the status table is 409 naming both states.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { DomainError, conflict, invalid } from '../../domain/errors.js'
import { toTransferResource, transferResourceSchema } from '../../domain/transfer/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import { originFrom } from '../runtime/requestOrigin.js'
import { scopedCustomerId } from '../customers/scope.js'
import { fundFromBalance } from './balanceFunding.js'
import { TRANSFER_TAGS } from './createTransferRoutes.js'
import type { TransferRouteDeps } from './deps.js'
import { awaitsSourceHold, fundSubmittedTransfer, readFunded } from './fundingStep.js'
import { openedTransfer, transferCommands } from './transferCommands.js'
import { assertAgentSubmitScope, submitAgentTransfer } from './agentSubmit.js'
import { loadOrgAccount, loadSender, loadTransfer } from './transferFacts.js'

export const transferParams = idParam('id', 'tfr_', 'Transfer')

export const TRANSFER_LIFECYCLE_LIMITS = { noteMaxLength: 500, reasonMaxLength: 500 } as const

const cancelBody = z
  .object({ reason: z.string().max(TRANSFER_LIFECYCLE_LIMITS.reasonMaxLength).optional() })
  .strict()
  .nullish()

const fundBody = z
  .object({
    fundingCustomerId: z.string().min(1).max(64).describe('The customer whose balance pays: any customer of the organization'),
    note: z.string().max(TRANSFER_LIFECYCLE_LIMITS.noteMaxLength).optional(),
    accountId: z
      .string()
      .max(64)
      .optional()
      .describe(
        "Which of that customer's balance accounts pays; omitted: the first of its ACTIVE balance accounts in the currency that covers it",
      ),
  })
  .strict()

const alreadyFunded = (transferId: string) => conflict('transfer_already_funded', `Transfer ${transferId} is already funded`)

export const transferLifecycleRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, deps) => {
  const transfers = deps.commands.bind(transferCommands)
  const base = (request: { params: { id: string } }, organizationId: string) => ({
    organizationId,
    transferId: request.params.id,
    now: new Date().toISOString(),
  })

  app.post(
    '/transfers/:id/submit',
    {
      schema: {
        operationId: 'submitTransfer',
        tags: TRANSFER_TAGS,
        summary: 'Submit a draft transfer',
        description:
          'DRAFT to PENDING; a balance-funded transfer is then held on its balance (422 insufficient_funds fails it). 409 ' +
          'transfer_held_by_platform for a transfer the platform created and holds in review; 409 transfer_invalid_transition from ' +
          'any other status than DRAFT (a second submit of a submitted transfer answers it unchanged). An agent’s draft reserves ' +
          'its amount on the agent’s limits first: over a limit 403 agent_limit_exceeded (it stays a DRAFT) or, for a ' +
          'REQUEST_APPROVAL agent, 403 agent_approval_required with the denial while it waits in PENDING_AUTHORIZATION with ' +
          'agentApprovalStatus PENDING for POST /v1/transfers/{id}/agent-approval (24 hours, then EXPIRED and cancelled). An agent ' +
          'key submits only its own agent’s transfers (403 agent_key_not_allowed).',
        headers: writeHeaders,
        params: transferParams,
        response: { 200: transferResourceSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId, agent } = principalOf(request)
      const loaded = await loadTransfer(deps.commands, organizationId, request.params.id, request.onBehalfOf)
      if (agent) assertAgentSubmitScope(agent, loaded)
      if (loaded.created.agentId !== null) return toTransferResource(await submitAgentTransfer(deps.commands, request, loaded))
      const state = openedTransfer(
        await transfers.handleToState(request, {
          type: 'SubmitTransfer',
          ...base(request, organizationId),
          onBehalfOf: request.onBehalfOf,
        }),
      )
      return toTransferResource(awaitsSourceHold(state) ? await fundSubmittedTransfer(deps.commands, request, state) : state)
    },
  )

  app.post(
    '/transfers/:id/cancel',
    {
      schema: {
        operationId: 'cancelTransfer',
        tags: TRANSFER_TAGS,
        summary: 'Cancel a transfer',
        description:
          'Cancels a transfer that has not received funds (DRAFT, PENDING_AUTHORIZATION, PENDING): it becomes CANCELLED and ' +
          'transfer.cancelled fires. 409 transfer_invalid_transition once funds were received or it is final.',
        headers: writeHeaders,
        params: transferParams,
        body: cancelBody,
        response: { 200: transferResourceSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      return transfers.handle(request, {
        type: 'CancelTransfer',
        ...base(request, organizationId),
        onBehalfOf: request.onBehalfOf,
        reason: request.body?.reason ?? null,
      })
    },
  )

  app.patch(
    '/transfers/:id/fund-from-balance',
    {
      schema: {
        operationId: 'fundTransferFromBalance',
        tags: TRANSFER_TAGS,
        summary: 'Fund a transfer awaiting its deposit from a balance',
        description:
          'Pays a PENDING transfer that waits for its deposit (fundingNeeded true) from a balance account of fundingCustomerId (any ' +
          'customer of the organization) holding the source currency: a hold is placed, settled when the payout completes and ' +
          'released if the transfer fails or is cancelled. 422 insufficient_funds (nothing changes), 422 no_balance_account, 409 ' +
          'transfer_not_awaiting_funds, 409 transfer_already_funded for every call after the one that funded it (concurrent ones ' +
          'too; one hold, one funding). A replay with the same Idempotency-Key answers the original 200.',
        headers: writeHeaders,
        params: transferParams,
        body: fundBody,
        response: { 200: transferResourceSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const transfer = await loadTransfer(deps.commands, organizationId, request.params.id, request.onBehalfOf)
      if (transfer.funding) throw alreadyFunded(request.params.id)
      if (transfer.created.funding !== 'DEPOSIT' || transfer.status !== 'PENDING')
        throw new DomainError(
          'conflict',
          'transfer_not_awaiting_funds',
          `Transfer ${request.params.id} is ${transfer.status}; it does not await a deposit`,
        )
      const customerId = scopedCustomerId(request, request.body.fundingCustomerId)!
      await loadSender(deps.commands, organizationId, customerId)
      const { currency, amountMinor } = transfer.created.sourceAmount
      const candidates =
        request.body.accountId !== undefined
          ? [request.body.accountId]
          : await deps.transferFunding.balanceSources(organizationId, customerId, currency)
      if (candidates.length === 0)
        throw invalid('no_balance_account', `Customer ${customerId} has no ACTIVE balance account holding ${currency}`, [
          { field: 'fundingCustomerId', message: `must hold a balance account in ${currency}`, value: customerId },
        ])
      let lastRefusal: DomainError | undefined
      for (const accountId of candidates) {
        const account = await loadOrgAccount(deps.commands, organizationId, accountId)
        if (account.account.customerId !== customerId || !account.account.balanceSourceEligible)
          throw invalid('account_not_balance_source', `Account ${accountId} is not a balance account of ${customerId}`, [
            { field: 'accountId', message: 'must be a balance account of fundingCustomerId', value: accountId },
          ])
        const result = await fundFromBalance(
          deps.commands,
          {
            organizationId,
            transferId: transfer.created.transferId,
            accountId,
            currency,
            amountMinor: BigInt(amountMinor),
            fundingCustomerId: customerId,
            note: request.body.note ?? null,
          },
          originFrom(request),
        )
        if (result.outcome === 'funded') {
          // The same hold's funding found done (a concurrent request with the same command ids, or an
          // earlier one): this request funded nothing, as the check above would have said a moment later.
          if (!result.fundedNow) throw alreadyFunded(request.params.id)
          await readFunded(deps.commands, transfer.created.transferId, result.position)
          return toTransferResource(await loadTransfer(deps.commands, organizationId, request.params.id))
        }
        if (result.outcome === 'refused') throw result.error
        lastRefusal = result.error
      }
      throw lastRefusal!
    },
  )
}
