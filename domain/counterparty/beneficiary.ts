// The beneficiary a counterparty is made of: given in a request (a third party), or the
// customer itself (a first-party counterparty: its name, type and address as saved).
import type { Customer, CustomerState } from '../customer/state.js'
import { invalid } from '../errors.js'
import type { Address } from '../shared/address.js'
import type { CustomerFacts } from './decider.js'
import type { BeneficiaryType } from './enums.js'

export type Beneficiary = { name: string; beneficiaryType: BeneficiaryType; address: Address | null }

export function customerFactsOf(state: CustomerState): CustomerFacts {
  if (!state.exists) return { exists: false }
  return { exists: true, organizationId: state.organizationId, archived: state.status === 'ARCHIVED', erased: state.erasedAt !== null }
}

/** The customer as its own counterparty: residential address, else registered, else physical. */
export function selfBeneficiary(c: Customer): Beneficiary {
  return {
    name: c.customerName,
    beneficiaryType: c.type,
    address: c.individual.address ?? c.business.registeredAddress ?? c.business.physicalAddress ?? null,
  }
}

/** A third party's beneficiary from a request: type, name and address all needed (422 naming each one missing). */
export function thirdPartyBeneficiary(input: {
  beneficiaryType?: BeneficiaryType | undefined
  beneficiaryName?: string | undefined
  address?: Address | undefined
  /** How the request names the address (beneficiaryAddress on an external wallet). */
  addressField: string
}): Beneficiary & { address: Address } {
  const { beneficiaryType, beneficiaryName, address } = input
  if (beneficiaryType === undefined || beneficiaryName === undefined || address === undefined) {
    const missing = [
      ...(beneficiaryType === undefined ? ['beneficiaryType'] : []),
      ...(beneficiaryName === undefined ? ['beneficiaryName'] : []),
      ...(address === undefined ? [input.addressField] : []),
    ]
    throw invalid(
      'counterparty_details_required',
      'A new third-party counterparty needs beneficiaryType, beneficiaryName and the beneficiary address (or give counterpartyId)',
      missing.map((field) => ({ field, message: 'required to create a third-party counterparty' })),
    )
  }
  return { name: beneficiaryName, beneficiaryType, address }
}
