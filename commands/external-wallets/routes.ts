// POST /v1/external-wallets: registers a customer's wallet (an account of kind EXTERNAL_WALLET,
// ewa_) for an asynchronous review. The chains give the address type; the address is checked for
// it; the counterparty is the one named, or found or created (upsertCounterparty); the same wallet
// asked for again (same customer, counterparty and normalized address, not CLOSED) is answered
// with created: false, safe under concurrent requests (match-key claims).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { accountDecider } from '../../domain/account/decider.js'
import {
  assertBeneficiaryFieldsApply,
  createExternalWalletBody,
  externalWalletMatchKey,
  externalWalletResource,
  matchDifferences,
  toExternalWalletResource,
} from '../../domain/account/externalWallet.js'
import { assertCustomerAcceptsCounterparties, counterpartyDecider } from '../../domain/counterparty/decider.js'
import { assertCounterpartyFor } from '../../domain/counterparty/usage.js'
import { DomainError } from '../../domain/errors.js'
import { addressTypeOf, checkWalletFit, validateWalletAddress } from '../../domain/shared/chain/index.js'
import type { Environment } from '../../domain/shared/environment.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands, openedAccount } from '../accounts/accountCommands.js'
import { loadCounterpartyCustomer } from '../counterparties/customerFacts.js'
import { upsertCounterparty } from '../counterparties/upsertCounterparty.js'
import { assertCustomerInScope } from '../customers/scope.js'
import { type Liveness, findOrCreate } from '../match-claims/findOrCreate.js'
import type { CommandRuntime, Commands } from '../runtime/commandRuntime.js'

export type ExternalWalletRouteDeps = { commands: CommandRuntime; environment: Environment }

const DESCRIPTION =
  'Answers 201 with created: true and status IN_REVIEW; a review on the scheduler makes the wallet ACTIVE a few seconds later ' +
  '(in the sandbox, the burn addresses of the documented trigger list end CLOSED instead). The same wallet again (same customer, ' +
  'counterparty and address, case aside for EVM, not CLOSED) answers 200 with created: false and the existing record, or 409 ' +
  'external_wallet_conflict when its chains, currencies or custody type differ. Without counterpartyId the counterparty is found ' +
  "or created: a third party's from beneficiaryType, beneficiaryName and beneficiaryAddress (all three required: 422 " +
  "counterparty_details_required), a first-party wallet's from the customer's own name and address. 404: customerId or " +
  'counterpartyId unknown, of another organization, or (customer) not the X-On-Behalf-Of one. 409: the customer is archived ' +
  '(customer_archived) or erased (customer_erased). 422: chains of several address types or a currency none of them carries ' +
  '(wallet_chains_mismatch), an address invalid for the address type (invalid_wallet_address), a counterparty of another ' +
  'customer (counterparty_customer_mismatch) or of the other side (counterparty_party_mismatch), beneficiary fields with ' +
  'counterpartyId or on a first-party wallet (beneficiary_not_applicable), an address line outside Latin-1 without its ' +
  'transliteration (address_invalid).'

/** An account stream's liveness for matching: a CLOSED wallet never answers again. */
function accountLiveness(commands: Commands): (id: string) => Promise<Liveness> {
  return async (id) => {
    const { state } = await commands.load(accountDecider, streams.account(id))
    return state.status === 'none' ? 'absent' : state.status === 'CLOSED' ? 'gone' : 'live'
  }
}

export const externalWalletRoutes: FastifyPluginAsyncZod<ExternalWalletRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)

  app.post(
    '/external-wallets',
    {
      schema: {
        operationId: 'createExternalWallet',
        tags: ['Accounts'],
        summary: 'Create an external wallet for a customer (asynchronous review)',
        description: DESCRIPTION,
        headers: writeHeaders,
        body: createExternalWalletBody,
        response: { 200: externalWalletResource, 201: externalWalletResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const body = request.body
      const { customerId, isThirdParty, custodyType } = body
      assertCustomerInScope(request, customerId)
      const customer = await loadCounterpartyCustomer(deps.commands, customerId)
      assertCustomerAcceptsCounterparties(customerId, organizationId, customer.facts)

      // The chains decide the address type; the address is checked (and normalized) for it.
      const [firstChain] = body.chains
      if (firstChain === undefined) throw new Error('the body schema requires a chain')
      const addressType = addressTypeOf(firstChain)
      const fit = checkWalletFit({ addressType, chains: body.chains, currencies: body.currencies })
      if (!fit.ok) throw fit.error
      const address = validateWalletAddress(addressType, body.walletAddress, deps.environment)
      if (!address.ok) throw address.error
      const walletAddress = address.value
      const { chains, currencies } = fit.value

      assertBeneficiaryFieldsApply(body)
      let counterpartyId = body.counterpartyId
      if (counterpartyId !== undefined) {
        const { state } = await deps.commands.load(counterpartyDecider, streams.counterparty(counterpartyId))
        assertCounterpartyFor(state, { counterpartyId, organizationId, customerId, isThirdParty })
      } else {
        const upserted = await upsertCounterparty(deps.commands, request, {
          organizationId,
          customerId,
          isThirdParty,
          beneficiaryType: body.beneficiaryType,
          beneficiaryName: body.beneficiaryName,
          address: body.beneficiaryAddress,
          addressField: 'beneficiaryAddress',
        })
        counterpartyId = upserted.counterpartyId
      }

      const matchKey = externalWalletMatchKey({ organizationId, customerId, counterpartyId, addressType, walletAddress })
      const wallet = await findOrCreate(deps.commands, request, {
        matchKey,
        organizationId,
        customerId,
        liveness: accountLiveness(deps.commands),
        newId: () => newId('ewa'),
        async create(accountId) {
          try {
            await accounts.handleToState(request, {
              type: 'OpenAccount',
              organizationId,
              accountId,
              status: 'IN_REVIEW',
              now: new Date().toISOString(),
              account: {
                customerId,
                kind: 'EXTERNAL_WALLET',
                type: 'EXTERNAL_WALLET',
                currencyCodes: currencies,
                paymentRails: [],
                holdsBalance: false,
                balanceSourceEligible: false,
                provider: custodyType,
                counterpartyId,
                metadata: body.metadata,
                details: {
                  kind: 'EXTERNAL_WALLET',
                  walletAddress,
                  addressType,
                  chains,
                  currencies,
                  custodyType,
                  isThirdParty,
                  externalReference: body.externalReference ?? null,
                },
              },
            })
            return true
          } catch (error) {
            if (error instanceof DomainError && error.code === 'account_exists') return false
            throw error
          }
        },
      })
      const { state } = await deps.commands.load(accountDecider, streams.account(wallet.id))
      const existing = openedAccount(state)
      if (!wallet.created) {
        const differences = matchDifferences(existing, { chains, currencies, custodyType })
        if (differences.length > 0)
          throw new DomainError(
            'conflict',
            'external_wallet_conflict',
            `External wallet ${wallet.id} already registers this address for this customer and counterparty, with other values`,
            differences,
          )
      }
      return reply.code(wallet.created ? 201 : 200).send(toExternalWalletResource(existing, wallet.created))
    },
  )
}
