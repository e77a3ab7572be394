// An account's own changes: its metadata, and closing it (refused while it holds funds, has payouts
// in flight or money on its way to it; closing a closed account answers it as it is).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { accountMetadataSchema } from '../../domain/account/accountMetadata.js'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands } from './accountCommands.js'
import { accountIdParams } from '../../http/accountParams.js'
import type { AccountRouteDeps } from './deps.js'

const updateAccountBody = z.object({ metadata: accountMetadataSchema.describe('Replaces the metadata as a whole') }).strict()

export const accountLifecycleRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  const scoped = (request: { params: { id: string }; onBehalfOf?: string | undefined }, organizationId: string) => ({
    organizationId,
    accountId: request.params.id,
    now: new Date().toISOString(),
    onBehalfOf: request.onBehalfOf,
  })

  app.patch(
    '/accounts/:id',
    {
      schema: {
        operationId: 'updateAccount',
        tags: ['Accounts'],
        summary: "Update an account's metadata",
        description: 'Replaces metadata (nickname, purpose, tags[] and your own keys). 404 unknown account; 409 account_closed.',
        headers: writeHeaders,
        params: accountIdParams,
        body: updateAccountBody,
        response: { 200: accountResourceSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) =>
      accounts.handle(request, {
        type: 'UpdateAccountMetadata',
        ...scoped(request, principalOf(request).organizationId),
        metadata: request.body.metadata,
      }),
  )

  app.post(
    '/accounts/:id/close',
    {
      schema: {
        operationId: 'closeAccount',
        tags: ['Accounts'],
        summary: 'Close an account',
        description:
          'Moves the account to CLOSED, for good. Refused with 409 account_has_pending_holds while payouts are in flight, 409 ' +
          'account_has_incoming_transfers while transfers to it (fixed-route sweeps included) are not final, 409 ' +
          'account_is_payout_treasury for the credit line’s payout treasury, and 409 account_has_funds while it holds any balance ' +
          '(pay it out first). Closing a closed account answers it unchanged.',
        headers: writeHeaders,
        params: accountIdParams,
        response: { 200: accountResourceSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      return accounts.handle(request, {
        type: 'CloseAccount',
        ...scoped(request, organizationId),
        reason: 'CLOSED_BY_CALLER',
        incoming: await deps.incomingMoney.incomingTo(organizationId, request.params.id),
      })
    },
  )
}
