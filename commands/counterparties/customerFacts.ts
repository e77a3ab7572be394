// What a counterparty needs of its customer, read from the customer's stream (so the decision
// stays pure): whether it takes counterparties, and the customer as its own beneficiary.
import { type Beneficiary, customerFactsOf, selfBeneficiary } from '../../domain/counterparty/beneficiary.js'
import type { CustomerFacts } from '../../domain/counterparty/decider.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { loadCustomer } from '../customers/facts.js'

export async function loadCounterpartyCustomer(
  commands: Commands,
  customerId: string,
): Promise<{ facts: CustomerFacts; self: Beneficiary | undefined }> {
  const customer = await loadCustomer(commands, customerId)
  return { facts: customerFactsOf(customer), self: customer.exists ? selfBeneficiary(customer) : undefined }
}
