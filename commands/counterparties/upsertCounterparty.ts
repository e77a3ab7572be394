// Finds or creates the counterparty of a beneficiary, for the routes that create external accounts
// without a counterpartyId. The match key (domain/counterparty/matchKey.ts) names a claim stream
// (domain/counterparty/matchClaim.ts) whose last event says which counterparty answers the key:
//   - claimed by an active counterparty: that one (created: false);
//   - claimed by one whose stream is still empty (its creator crashed or is still creating): it
//     is created under the claimed id, by whichever request gets there first;
//   - unclaimed, or claimed by a deleted one: a new id is claimed with the revision read, so of
//     concurrent upserts exactly one claim lands; the others read it on their next round.
// Ids stay time-ordered (newId) like every other id; only the small claim stream is keyed by hash.
import type { FastifyRequest } from 'fastify'
import { thirdPartyBeneficiary } from '../../domain/counterparty/beneficiary.js'
import { assertCustomerAcceptsCounterparties, counterpartyDecider } from '../../domain/counterparty/decider.js'
import type { BeneficiaryType } from '../../domain/counterparty/enums.js'
import { counterpartyMatchDecider } from '../../domain/counterparty/matchClaim.js'
import { counterpartyMatchKey } from '../../domain/counterparty/matchKey.js'
import { assertBeneficiaryAddress } from '../../domain/counterparty/resource.js'
import { DomainError, conflict, notFound } from '../../domain/errors.js'
import type { Address } from '../../domain/shared/address.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { loadAggregate } from '../runtime/handleCommand.js'
import { originFrom } from '../runtime/requestOrigin.js'
import { counterpartyCommands } from './counterpartyCommands.js'
import { loadCounterpartyCustomer } from './customerFacts.js'

export const COUNTERPARTY_MATCH_LIMITS = {
  /** Claim reads per upsert: each round ends it or sees a newer claim, so a few suffice but a delete-and-upsert storm. */
  maxRounds: 5,
} as const

/** The stream of one match key's claims. */
export const matchStream = (matchKey: string) => `counterparty_match-${matchKey}`

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

export async function upsertCounterparty(
  commands: CommandRuntime,
  request: FastifyRequest,
  input: UpsertCounterpartyInput,
): Promise<UpsertCounterpartyResult> {
  const { organizationId, customerId } = input
  const customer = await loadCounterpartyCustomer(commands.store, customerId)
  assertCustomerAcceptsCounterparties(customerId, organizationId, customer.facts)
  const addressField = input.addressField ?? 'address'
  const self = customer.self
  if (!self) throw notFound('Customer', customerId)
  const beneficiary = input.isThirdParty ? thirdPartyBeneficiary({ ...input, addressField }) : self
  if (input.isThirdParty) assertBeneficiaryAddress(beneficiary.address ?? undefined, addressField)
  const matchKey = counterpartyMatchKey(
    beneficiary.address && input.isThirdParty
      ? { organizationId, customerId, isThirdParty: true, ...beneficiary, address: beneficiary.address }
      : { organizationId, customerId, isThirdParty: false },
  )
  const counterparties = commands.bind(counterpartyCommands)
  const create = async (counterpartyId: string): Promise<boolean> => {
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
      // Another request created it under the same claim first.
      if (error instanceof DomainError && error.code === 'resource_already_exists') return false
      throw error
    }
  }
  const stream = matchStream(matchKey)
  for (let round = 0; round < COUNTERPARTY_MATCH_LIMITS.maxRounds; round++) {
    const { state: claim } = await loadAggregate(commands.store, counterpartyMatchDecider, stream)
    if (claim.claimedBy !== null) {
      const claimed = claim.claimedBy
      const { state } = await loadAggregate(commands.store, counterpartyDecider, streams.counterparty(claimed))
      if (state.status === 'active') return { counterpartyId: claimed, created: false }
      if (state.status === 'none') {
        if (await create(claimed)) return { counterpartyId: claimed, created: true }
        continue
      }
    }
    const candidate = newId('cp')
    const result = await commands.handle(
      counterpartyMatchDecider,
      stream,
      {
        type: 'ClaimCounterpartyMatch',
        matchKey,
        organizationId,
        customerId,
        counterpartyId: candidate,
        replacing: claim.claimedBy,
        now: new Date().toISOString(),
      },
      originFrom(request),
    )
    if (result.state.claimedBy === candidate && (await create(candidate))) return { counterpartyId: candidate, created: true }
  }
  throw conflict('concurrent_modification', 'The counterparty was changed concurrently; retry the request')
}

/**
 * After an explicit creation: the new counterparty answers its key when no active one does, so a
 * later upsert for the same beneficiary finds it. Best effort by design (an explicit create always
 * creates): a concurrent upsert's claim wins, and then the explicit counterparty is simply unclaimed.
 */
export async function claimMatchIfFree(
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
  const stream = matchStream(matchKey)
  const { state: claim } = await loadAggregate(commands.store, counterpartyMatchDecider, stream)
  if (claim.claimedBy !== null) {
    const { state } = await loadAggregate(commands.store, counterpartyDecider, streams.counterparty(claim.claimedBy))
    if (state.status !== 'deleted') return
  }
  await commands.handle(
    counterpartyMatchDecider,
    stream,
    {
      type: 'ClaimCounterpartyMatch',
      matchKey,
      organizationId: c.organizationId,
      customerId: c.customerId,
      counterpartyId: c.counterpartyId,
      replacing: claim.claimedBy,
      now: new Date().toISOString(),
    },
    originFrom(request),
  )
}
