// Whether an account may name a counterparty: an active one of the same organization (else it is
// missing: 404), of the account's customer, and on the same side (a third-party account names a
// third-party counterparty; a first-party one, the customer's own).
import { invalid, notFound } from '../errors.js'
import type { CounterpartyState } from './decider.js'

export function assertCounterpartyFor(
  state: CounterpartyState,
  account: { counterpartyId: string; organizationId: string; customerId: string; isThirdParty: boolean },
): void {
  if (state.status !== 'active' || state.organizationId !== account.organizationId) throw notFound('Counterparty', account.counterpartyId)
  if (state.customerId !== account.customerId)
    throw invalid('counterparty_customer_mismatch', `Counterparty ${account.counterpartyId} belongs to another customer`, [
      { field: 'counterpartyId', message: `must be a counterparty of customer ${account.customerId}`, value: account.counterpartyId },
    ])
  if (state.isThirdParty !== account.isThirdParty) {
    const side = state.isThirdParty ? 'a third party' : "the customer's own"
    throw invalid('counterparty_party_mismatch', `Counterparty ${account.counterpartyId} is ${side}; isThirdParty says otherwise`, [
      {
        field: 'counterpartyId',
        message: `must be a counterparty with isThirdParty ${account.isThirdParty}`,
        value: account.counterpartyId,
      },
    ])
  }
}
