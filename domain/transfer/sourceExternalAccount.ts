// The external account a deposit comes from (source.externalAccountId of a transfer), decided on its
// state (pure: the command handler loads it, another organization's or an unknown id being its 404):
// the sender's own external bank account for a fiat rail, or its external wallet for a chain, ACTIVE.
// A balance source names its account in source.accountId, so it takes none. Each refusal names the field.
import type { OpenAccountState } from '../account/decider.js'
import { DomainError, invalid } from '../errors.js'
import type { RouteSide } from './route.js'

const FIELD = 'source.externalAccountId'

/** The kind of external account each kind of source is paid from. */
const KIND_OF_SOURCE = { FIAT_RAIL: 'EXTERNAL_BANK', CHAIN: 'EXTERNAL_WALLET' } as const

export function assertSourceExternalAccount(account: OpenAccountState, senderId: string, source: RouteSide): void {
  const id = account.account.accountId
  if (source.kind === 'BALANCE')
    throw invalid('source_ambiguous', 'A balance account source takes no external account', [
      { field: FIELD, message: 'omit it with source.accountId', value: id },
    ])
  const kind = KIND_OF_SOURCE[source.kind]
  if (account.account.details.kind !== kind)
    throw invalid('invalid_source_account', `Account ${id} is not an external ${source.kind === 'CHAIN' ? 'wallet' : 'bank account'}`, [
      {
        field: FIELD,
        message: `must be the sender's ${kind === 'EXTERNAL_BANK' ? 'external bank account (eba_)' : 'external wallet (ewa_)'}`,
        value: id,
      },
    ])
  if (account.account.customerId !== senderId)
    throw invalid('account_not_owned_by_sender', `Account ${id} does not belong to customer ${senderId}`, [
      { field: FIELD, message: 'must belong to sourceCustomerId', value: id },
    ])
  if (account.status !== 'ACTIVE')
    throw new DomainError('conflict', 'account_not_active', `Account ${id} is ${account.status}, not ACTIVE`, [
      { field: FIELD, message: 'must be an ACTIVE account', value: id },
    ])
}
