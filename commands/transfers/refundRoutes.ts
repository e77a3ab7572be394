// POST /v1/transfers/{id}/refund: sends a transfer's received funds back when it cannot go on (in
// review) or its payout came back with nowhere to put the money (reversed without a return). A
// balance-funded transfer's hold is released; a deposit goes to the source's refund account when it
// has one, else back out as a REFUND_CRYPTO transfer (to the deposit's fromAddress, or `address`)
// or a REFUND_FIAT one (to the sender's bank account, `externalAccountId`, on the deposit's rail).
// transfer.refund_initiated, then transfer.refund_completed when the money is back.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { invalid } from '../../domain/errors.js'
import { addressTypeOf, validateWalletAddress, type Chain } from '../../domain/shared/chain/index.js'
import { refundTransfer } from '../../domain/transfer/systemTransfers.js'
import { transferResourceSchema } from '../../domain/transfer/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { TRANSFER_TAGS } from './createTransferRoutes.js'
import type { TransferRouteDeps } from './deps.js'
import { derivedTransferId } from './derivedTransferId.js'
import { transferCommands } from './transferCommands.js'
import { loadOrgAccount, loadTransfer } from './transferFacts.js'
import { transferParams } from './transferLifecycleRoutes.js'

export const REFUND_LIMITS = { reasonMaxLength: 500, addressMaxLength: 120 } as const

const refundBody = z
  .object({
    reason: z.string().min(1).max(REFUND_LIMITS.reasonMaxLength).optional(),
    address: z
      .string()
      .min(1)
      .max(REFUND_LIMITS.addressMaxLength)
      .optional()
      .describe('Crypto refunds: the address to refund (default: source.fromAddress)'),
    externalAccountId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("Fiat refunds: the sender's bank account (default: source.externalAccountId)"),
  })
  .strict()
  .nullish()

export const refundRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, deps) => {
  const transfers = deps.commands.bind(transferCommands)
  app.post(
    '/transfers/:id/refund',
    {
      schema: {
        operationId: 'refundTransfer',
        tags: TRANSFER_TAGS,
        summary: 'Refund a transfer’s received funds',
        description:
          'For a transfer IN_REVIEW (it becomes REVERSED) or REVERSED without its funds returned. A balance-funded transfer’s hold is ' +
          'released; a deposit goes to source.refundAccountId when set, else back out as a REFUND_CRYPTO transfer (to address or ' +
          'source.fromAddress; 422 refund_address_required) or a REFUND_FIAT one (to externalAccountId or source.externalAccountId; ' +
          '422 refund_account_required). The refund object shows its progress; 409 transfer_not_refundable otherwise, and 409 ' +
          'transfer_funds_held for money held in suspense (a credit it needed was refused: the platform operator resolves it).',
        headers: writeHeaders,
        params: transferParams,
        body: refundBody,
        response: { 200: transferResourceSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const s = await loadTransfer(deps.commands, organizationId, request.params.id, request.onBehalfOf)
      const c = s.created
      const reason = request.body?.reason ?? 'Refunded at the caller’s request'
      const toBalance = s.funding?.method === 'BALANCE' ? s.funding.accountId : c.source.refundAccountId
      let refundTransferId: string | null = null
      let address: string | null = null
      let externalAccountId: string | null = null
      if (!toBalance && s.funding) {
        address = request.body?.address ?? c.source.fromAddress
        externalAccountId = request.body?.externalAccountId ?? c.source.externalAccountId
        if (c.source.kind === 'CHAIN' && address !== null) {
          const checked = validateWalletAddress(addressTypeOf(c.source.paymentRail as Chain), address, deps.environment, 'address')
          if (!checked.ok) throw checked.error
          address = checked.value
        }
        if (c.source.kind === 'FIAT_RAIL' && externalAccountId !== null) {
          const account = await loadOrgAccount(deps.commands, organizationId, externalAccountId)
          if (account.account.customerId !== c.customerId || account.account.details.kind !== 'EXTERNAL_BANK')
            throw invalid('refund_account_invalid', `Account ${externalAccountId} is not a bank account of customer ${c.customerId}`, [
              { field: 'externalAccountId', message: "must be the sender's external bank account", value: externalAccountId },
            ])
        }
        // Checks the refund can be built (its destination known) before anything is written.
        refundTransfer(s, { address, bankAccountId: externalAccountId }, { legIds: ['x', 'y'], schedule: c.schedule, now: new Date() })
        refundTransferId = derivedTransferId(c.transferId, 'refund')
      }
      return transfers.handle(request, {
        type: 'InitiateRefund',
        organizationId,
        transferId: c.transferId,
        now: new Date().toISOString(),
        onBehalfOf: request.onBehalfOf,
        reason,
        refundTransferId,
        address,
        externalAccountId,
        returnedToAccountId: toBalance ?? null,
      })
    },
  )
}
