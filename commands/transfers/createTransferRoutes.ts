// POST /v1/transfers: creates a transfer of any flow (route.ts derives it), as a DRAFT (confirm
// false) or submitted. The facts are read here and the decider plans the request (planTransfer.ts).
// A transfer paid from a balance is funded at once: the decider checks its balance first (422
// insufficient_funds, nothing written), then it is held for it (balanceFunding.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { newId } from '../../domain/shared/ids.js'
import { toTransferResource, transferResourceSchema } from '../../domain/transfer/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { crashPoint } from '../runtime/crashPoints.js'
import { createTransferBody } from '../../domain/transfer/createTransferBody.js'
import type { TransferRouteDeps } from './deps.js'
import { awaitsSourceHold, fundSubmittedTransfer } from './fundingStep.js'
import { drawPlanEntropy, loadTransferFacts } from './newTransfer.js'
import { planTransfer } from '../../domain/transfer/planTransfer.js'
import { consumeQuote, loadPendingQuote } from './quotedTransfer.js'
import { loadUsableDraft, useDraft } from './draftedTransfer.js'
import { openedTransfer, transferCommands } from './transferCommands.js'
import { assertAgentTransferScope, releaseOnFailure, reserveForAgent } from './agentTransfers.js'

export const TRANSFER_TAGS = ['Transfers']

export const createTransferRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, deps) => {
  const transfers = deps.commands.bind(transferCommands)
  app.post(
    '/transfers',
    {
      schema: {
        operationId: 'createTransfer',
        tags: TRANSFER_TAGS,
        summary: 'Create a transfer',
        description:
          'Moves money from a source (a balance account, a fiat rail or a chain) to a destination (a balance account, an external bank ' +
          'account or wallet, or an address on a chain). The flow is derived from the two sides; an impossible route is 422 ' +
          'route_not_supported naming each reason. Give the amount on exactly one side (sourceAmount or destinationAmount, minor ' +
          'units; each amount, the fixed fee too, at most 10^12 major units of its currency, else 422 amount_too_large); the ' +
          'developer fee (developerFeeFixed + developerFeePercent × source, half up) is withheld from the source amount ' +
          '(422 developer_fee_exceeds_amount when it would take it all). quoteId prices it by a firm FX quote of the sender’s and ' +
          'consumes it (404 unknown, 410 fx_quote_not_pending or fx_quote_expired, 422 quote_mismatch when its currencies, ' +
          'network or rail, amount or a developer fee do not fit the quote); the amount may then be omitted. ' +
          'The sender must be APPROVED (422 customer_not_approved) and ' +
          'have requested the capability of each rail (422 customer_capability_missing). confirm false keeps a DRAFT; otherwise a ' +
          'balance-funded transfer is held on its balance at once (422 insufficient_funds, nothing written) and moves to PROCESSING, ' +
          'and a deposit-funded one waits in PENDING with fundingNeeded and depositInstructions. draftId makes it from a transfer ' +
          'draft (POST /v1/transfer-drafts): 404 unknown, 409 transfer_draft_not_approved (naming its status) or ' +
          'transfer_draft_rejected, 409 transfer_draft_used once another transfer was made from it, 422 transfer_draft_mismatch ' +
          '(details name draftHash or destinationAccountIds) unless this body less confirm, quoteId and draftId has its draftHash ' +
          'and pays its destinationAccountIds. Idempotency-Key makes a retry safe.',
        headers: writeHeaders,
        body: createTransferBody,
        response: { 201: transferResourceSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId, agent } = principalOf(request)
      const freshId = newId('tfr')
      const now = new Date()
      const body = request.body
      if (agent) assertAgentTransferScope(agent, body)
      const facts = await loadTransferFacts(request, deps.commands, organizationId, body)
      if (body.quoteId !== undefined) facts.quote = await loadPendingQuote(deps.commands, organizationId, body.quoteId, now)
      const draft =
        body.draftId === undefined ? undefined : await loadUsableDraft(deps.commands, request, organizationId, body.draftId, body, freshId)
      // A draft a crash left used by a transfer never created resumes that transfer (draftedTransfer.ts).
      const transferId = draft?.transferId ?? freshId
      const plan = { body, facts, environment: deps.environment, entropy: drawPlanEntropy(), ...(agent ? { agentId: agent.agentId } : {}) }
      // Planned once before the quote, draft or agent amount is taken: a transfer refused for its own reasons leaves them as they were.
      const planned = facts.quote || draft || agent ? planTransfer({ ...plan, transferId, now }) : undefined
      if (facts.quote) await consumeQuote(deps.commands, request, facts.quote, transferId, now)
      if (draft) await useDraft(deps.commands, request, draft, now)
      // An agent's submitted transfer reserves its amount (a DRAFT reserves at submit).
      const reservation = agent && body.confirm !== false ? { organizationId, agentId: agent.agentId, transferId } : undefined
      if (reservation && planned)
        await reserveForAgent(deps.commands, request, planned.sourceAmount, { ...reservation, now, submittedDraft: false })
      const command = { type: 'RequestTransfer' as const, organizationId, transferId, now: now.toISOString(), request: plan }
      // The answer needs the transfer's read model, not the workflows it starts (the funding below runs its steps itself).
      // A refused create or hold frees the agent's reservation before the answer (the workflow release_agent_spend would too).
      const released = releaseOnFailure(deps.commands, request, reservation)
      const created = openedTransfer(await transfers.handleToState(request, command).catch(released('NOT_CREATED')))
      crashPoint('transfer-created')
      const state = awaitsSourceHold(created)
        ? await fundSubmittedTransfer(deps.commands, request, created).catch(released('FAILED'))
        : created
      return reply.code(201).send(toTransferResource(state))
    },
  )
}
