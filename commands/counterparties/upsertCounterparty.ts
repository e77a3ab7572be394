// Finds or creates the counterparty of a beneficiary, for the routes that create external accounts
// without a counterpartyId: one counterparty per match key (domain/counterparty/matchKey.ts), safe
// under concurrent requests (commands/match-claims/findOrCreate.ts). Deleted ones never match.
import type { FastifyRequest } from 'fastify'
import { type Beneficiary, thirdPartyBeneficiary } from '../../domain/counterparty/beneficiary.js'
import { assertCustomerAcceptsCounterparties, counterpartyDecider } from '../../domain/counterparty/decider.js'
import type { BeneficiaryType } from '../../domain/counterparty/enums.js'
import { counterpartyMatchKey } from '../../domain/counterparty/matchKey.js'
import { assertBeneficiaryAddress } from '../../domain/counterparty/resource.js'
import { DomainError, notFound } from '../../domain/errors.js'
import type { Address } from '../../domain/shared/address.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import { type Liveness, claimIfFree, findOrCreate } from '../match-claims/findOrCreate.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { counterpartyCommands } from './counterpartyCommands.js'
import { loadCounterpartyCustomer } from './customerFacts.js'
import type { Commands } from '../runtime/commandRuntime.js'

export type UpsertCounterpartyInput = {
  organizationId: string
  customerId: string
  /** false: the customer's own counterparty (one per customer, made from its name and address). */
  isThirdParty: boolean
  beneficiaryType?: BeneficiaryType | undefined
  beneficiaryName?: string | undefined
  address?: Address | undefined
  /** How the request names the address, for 422 details (default `address`). */
  addressField?: string
}

export type UpsertCounterpartyResult = { counterpartyId: string; created: boolean }

/** A counterparty stream's liveness for matching: active matches, deleted never does. */
export function counterpartyLiveness(commands: Commands): (id: string) => Promise<Liveness> {
  return async (id) => {
    const { state } = await commands.load(counterpartyDecider, streams.counterparty(id))
    return state.status === 'active' ? 'live' : state.status === 'none' ? 'absent' : 'gone'
  }
}

export async function upsertCounterparty(
  commands: CommandRuntime,
  request: FastifyRequest,
  input: UpsertCounterpartyInput,
): Promise<UpsertCounterpartyResult> {
  const { organizationId, customerId } = input
  const customer = await loadCounterpartyCustomer(commands, customerId)
  assertCustomerAcceptsCounterparties(customerId, organizationId, customer.facts)
  const self = customer.self
  if (!self) throw notFound('Customer', customerId)
  const addressField = input.addressField ?? 'address'
  let beneficiary: Beneficiary = self
  let matchKey = counterpartyMatchKey({ organizationId, customerId, isThirdParty: false })
  if (input.isThirdParty) {
    const thirdParty = thirdPartyBeneficiary({ ...input, addressField })
    assertBeneficiaryAddress(thirdParty.address, addressField)
    beneficiary = thirdParty
    matchKey = counterpartyMatchKey({ organizationId, customerId, isThirdParty: true, ...thirdParty })
  }
  const counterparties = commands.bind(counterpartyCommands)
  const found = await findOrCreate(commands, request, {
    matchKey,
    organizationId,
    customerId,
    liveness: counterpartyLiveness(commands),
    newId: () => newId('cp'),
    async create(counterpartyId) {
      try {
        await counterparties.handle(request, {
          type: 'CreateCounterparty',
          organizationId,
          counterpartyId,
          customerId,
          customer: customer.facts,
          name: beneficiary.name,
          beneficiaryType: beneficiary.beneficiaryType,
          address: beneficiary.address,
          isThirdParty: input.isThirdParty,
          metadata: {},
          now: new Date().toISOString(),
        })
        return true
      } catch (error) {
        if (error instanceof DomainError && error.code === 'resource_already_exists') return false
        throw error
      }
    },
  })
  return { counterpartyId: found.id, created: found.created }
}

/** After an explicit creation: the new counterparty answers its beneficiary's key unless an active one does. */
export async function claimCounterpartyIfFree(
  commands: CommandRuntime,
  request: FastifyRequest,
  c: { organizationId: string; customerId: string; counterpartyId: string; isThirdParty: boolean } & {
    name: string
    beneficiaryType: BeneficiaryType
    address: Address
  },
): Promise<void> {
  const matchKey = counterpartyMatchKey(
    c.isThirdParty ? { ...c, isThirdParty: true } : { organizationId: c.organizationId, customerId: c.customerId, isThirdParty: false },
  )
  await claimIfFree(commands, request, {
    matchKey,
    organizationId: c.organizationId,
    customerId: c.customerId,
    id: c.counterpartyId,
    liveness: counterpartyLiveness(commands),
  })
}
