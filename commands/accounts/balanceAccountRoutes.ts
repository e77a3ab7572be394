// Opening balance accounts: USD (`acc_`, the service's bank) for a customer or the organization
// itself. Stablecoin balance accounts (internal wallets) are in stablecoinAccountRoutes.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { accountMetadataSchema } from '../../domain/account/accountMetadata.js'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { newId } from '../../domain/shared/ids.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands } from './accountCommands.js'
import type { AccountRouteDeps } from './deps.js'
import { optionalOwner } from './ownerFacts.js'
import { balanceProvider } from './providers.js'

/** Rails a USD balance account is reachable on: bank rails in, and BALANCE (book transfers between balances). */
export const USD_BALANCE_RAILS = ['ACH', 'ACH_SAME_DAY', 'WIRE', 'RTP', 'BALANCE'] as const

export const customerIdField = z
  .string()
  .max(64)
  .optional()
  .describe("The customer (cus_) who owns the account; omitted: the X-On-Behalf-Of customer, else the organization's own account")

const usdBalanceAccountBody = z
  .object({
    customerId: customerIdField,
    metadata: accountMetadataSchema.optional(),
  })
  .strict()

export const balanceAccountRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  app.post(
    '/balance-accounts',
    {
      schema: {
        operationId: 'createBalanceAccount',
        tags: ['Accounts'],
        summary: 'Open a USD balance account',
        description:
          'Opens an ACTIVE USD balance account (acc_, type INFINITE_BANK, holdsBalance true) for a customer, or for the organization ' +
          "itself when no customer is given. Customer accounts can fund transfers (balanceSourceEligible true); the organization's " +
          'own cannot. 404 for an unknown customer; 409 customer_archived or customer_erased.',
        headers: writeHeaders,
        body: usdBalanceAccountBody,
        response: { 201: accountResourceSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const owner = await optionalOwner(request, deps.commands, organizationId, request.body.customerId)
      const resource = await accounts.handle(request, {
        type: 'OpenAccount',
        organizationId,
        accountId: newId('acc'),
        now: new Date().toISOString(),
        status: 'ACTIVE',
        account: {
          customerId: owner?.id ?? null,
          kind: 'USD_BALANCE',
          type: 'INFINITE_BANK',
          currencyCodes: ['USD'],
          paymentRails: [...USD_BALANCE_RAILS],
          holdsBalance: true,
          balanceSourceEligible: owner !== undefined,
          provider: balanceProvider(deps.environment),
          counterpartyId: null,
          metadata: request.body.metadata ?? {},
          details: { kind: 'USD_BALANCE' },
        },
      })
      return reply.code(201).send(resource)
    },
  )
}
