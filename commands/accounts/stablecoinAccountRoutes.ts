// Opening stablecoin balance accounts: an internal wallet (`inw_`, INFINITE_WALLET) holding one
// stablecoin on one chain, for a customer or as the organization's own treasury (walletType
// TREASURY: its Solana treasuries are the credit line's payout destinations). The sandbox makes
// the wallet's address itself; production needs a custody provider, which this service does not
// ship (design.md: real provider adapters are out of scope), so it answers 503 there.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { accountMetadataSchema } from '../../domain/account/accountMetadata.js'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { invalid } from '../../domain/errors.js'
import { addressTypeOf, chainCarries, chainSchema, sandboxWalletAddress, SANDBOX_ADDRESS_BYTES } from '../../domain/shared/chain/index.js'
import { newId } from '../../domain/shared/ids.js'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import { ApiError, errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands } from './accountCommands.js'
import { customerIdField } from './balanceAccountRoutes.js'
import type { AccountRouteDeps } from './deps.js'
import { optionalOwner } from './ownerFacts.js'
import { walletProvider } from './providers.js'

export const STABLECOINS = ['USDC', 'USDT', 'USAT'] as const

const stablecoinAccountBody = z
  .object({
    customerId: customerIdField,
    currency: z.enum(STABLECOINS).describe('The stablecoin held: USDC, USDT or USAT'),
    chain: chainSchema.describe('The chain the wallet is on; it must carry the currency (USAT: ETHEREUM only)'),
    metadata: accountMetadataSchema.optional(),
  })
  .strict()

export const stablecoinAccountRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  app.post(
    '/balance-accounts/stablecoin',
    {
      schema: {
        operationId: 'createStablecoinAccount',
        tags: ['Accounts'],
        summary: 'Open a stablecoin balance account',
        description:
          'Opens an ACTIVE internal wallet (inw_, type INFINITE_WALLET, holdsBalance true) holding one stablecoin on one chain, with ' +
          "its own address, for a customer (walletType CUSTOMER) or as the organization's treasury (no customer: walletType " +
          'TREASURY). 422 currency_not_on_chain when the chain does not carry the currency. 503 custody_provider_unavailable in ' +
          'production, where no custody provider is configured.',
        headers: writeHeaders,
        body: stablecoinAccountBody,
        response: { 201: accountResourceSchema, ...errorResponses(404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const { currency, chain } = request.body
      if (!chainCarries(chain, currency))
        throw invalid('currency_not_on_chain', `${chain} does not carry ${currency}`, [
          { field: 'chain', message: `must carry ${currency}`, value: chain },
        ])
      const owner = await optionalOwner(request, deps.commands, organizationId, request.body.customerId)
      if (deps.environment !== 'sandbox')
        throw new ApiError(503, 'No custody provider is configured to create wallets', 'custody_provider_unavailable')
      const addressType = addressTypeOf(chain)
      const resource = await accounts.handle(request, {
        type: 'OpenAccount',
        organizationId,
        accountId: newId('inw'),
        now: new Date().toISOString(),
        status: 'ACTIVE',
        account: {
          customerId: owner?.id ?? null,
          kind: 'STABLECOIN_BALANCE',
          type: 'INFINITE_WALLET',
          currencyCodes: [currency],
          paymentRails: ['BALANCE'],
          holdsBalance: true,
          balanceSourceEligible: owner !== undefined,
          provider: walletProvider(deps.environment),
          counterpartyId: null,
          metadata: request.body.metadata ?? {},
          details: {
            kind: 'STABLECOIN_BALANCE',
            chain,
            addressType,
            walletAddress: sandboxWalletAddress(addressType, secureRandomBytes(SANDBOX_ADDRESS_BYTES[addressType])),
            walletType: owner ? 'CUSTOMER' : 'TREASURY',
          },
        },
      })
      return reply.code(201).send(resource)
    },
  )
}
