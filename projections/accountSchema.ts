// The accounts read model's tables (projections/accounts.ts owns them; migration 0012).
import type { AccountResource } from '../domain/account/resource.js'
import type { Json, Timestamp } from './columnTypes.js'

export interface AccountsTable {
  id: string
  organization_id: string
  customer_id: string | null
  counterparty_id: string | null
  sweep_target_account_id: string | null
  type: string
  status: string
  provider: string
  holds_balance: boolean
  balance_source_eligible: boolean
  address_type: string | null
  currency_codes: string[]
  payment_rails: string[]
  created_at: Timestamp
  updated_at: Timestamp
  /** The account as GET /v1/accounts/{id} shows it (masked numbers only). */
  resource: Json<AccountResource>
}

export interface AccountDatabase {
  accounts: AccountsTable
}
