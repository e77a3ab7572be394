// POST /v1/transfer-drafts: registers a transfer draft for platform approval. The body's transfer is
// checked as a create checks it for ownership (the sender, every account and counterparty the
// organization's: 404 otherwise), its payee account taken (422 when it pays an address), its
// canonical hash computed, and its sandbox screening outcome fixed; the draft then waits in
// PENDING_APPROVAL (the sandbox engine moves it on, an operator in production).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { OpenAccountState } from '../../domain/account/decider.js'
import { newId } from '../../domain/shared/ids.js'
import type { Environment } from '../../domain/shared/environment.js'
import { registerDraftBody } from '../../domain/transfer-draft/draftBody.js'
import { draftHashOf, payeeAccountIdsOf } from '../../domain/transfer-draft/draftHash.js'
import { toTransferDraftResource, transferDraftResource } from '../../domain/transfer-draft/resource.js'
import { DRAFT_REJECT_AMOUNT, DRAFT_SCREENING_LIMITS, sandboxScreeningOutcome } from '../../domain/transfer-draft/screening.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { loadTransferFacts } from '../transfers/newTransfer.js'
import { transferDraftBinding } from './draftCommands.js'

export const TRANSFER_DRAFT_TAGS = ['Transfer drafts']

export type TransferDraftRouteDeps = { commands: CommandRuntime; environment: Environment; clock: () => Date }

/** The source currency when the body or its one-currency balance account says it; else left to the transfer. */
const sourceCurrencyOf = (asked: string | undefined, account: OpenAccountState | undefined) =>
  asked ?? (account?.account.currencyCodes.length === 1 ? account.account.currencyCodes[0] : undefined)

export const registerDraftRoutes: FastifyPluginAsyncZod<TransferDraftRouteDeps> = async (app, deps) => {
  const drafts = deps.commands.bind(transferDraftBinding)
  app.post(
    '/transfer-drafts',
    {
      schema: {
        operationId: 'createTransferDraft',
        tags: TRANSFER_DRAFT_TAGS,
        summary: 'Register a transfer draft for platform approval',
        description:
          'Registers the transfer (the POST /v1/transfers body without confirm and quoteId) as a draft (tdraft_) and answers its ' +
          'approval record (tda_), PENDING_APPROVAL, with draftHash (sha256: + the hex SHA-256 of the RFC 8785 canonical JSON of ' +
          'the transfer as given: key order does not change it) and destinationAccountIds (its payee account, screened at ' +
          'approval). The sender, accounts and counterparty must be the organization’s (404 resource_not_found); a transfer ' +
          'paying an address, not an account, is 422 transfer_draft_payee_required. The sandbox screens it: SCREENING after ' +
          `${DRAFT_SCREENING_LIMITS.startDelayMs / 1000} s, then APPROVED after ${DRAFT_SCREENING_LIMITS.screeningDelayMs / 1000} ` +
          `s, or REJECTED when its source amount is ${DRAFT_REJECT_AMOUNT} (major units); POST ` +
          '/v1/sandbox/transfer-drafts/{draftId}/advance runs the next step at once. In production an operator decides. An ' +
          'APPROVED draft makes one transfer: POST /v1/transfers with draftId and the same content. Idempotency-Key replays.',
        headers: writeHeaders,
        body: registerDraftBody,
        response: { 201: transferDraftResource, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const body = request.body.transfer
      const destinationAccountIds = payeeAccountIdsOf(body)
      const facts = await loadTransferFacts(request, deps.commands, organizationId, body)
      const currency = sourceCurrencyOf(body.source.currency, facts.sourceAccount)
      const state = await drafts.handleToState(request, {
        type: 'RegisterDraft',
        organizationId,
        draftId: newId('tdraft'),
        approvalId: newId('tda'),
        customerId: facts.sender.id,
        draftHash: draftHashOf(body),
        destinationAccountIds,
        environment: deps.environment,
        sandboxOutcome: sandboxScreeningOutcome(body.sourceAmount, currency),
        now: deps.clock().toISOString(),
      })
      if (state.status === 'none') throw new Error('a registered draft has a state')
      return reply.code(201).send(toTransferDraftResource(state))
    },
  )
}
