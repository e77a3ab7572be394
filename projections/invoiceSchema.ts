// The invoices' read model (projections/invoices.ts).
import type { ExistingInvoice } from '../domain/invoice/state.js'
import type { Json, Timestamp } from './columnTypes.js'

/** One row per invoice (a deleted draft's row goes): its state, the payer sealed; the filter columns copied out of it. */
export interface InvoicesTable {
  id: string
  organization_id: string
  /** The payee; its data key seals the payer (sealedColumns.ts). */
  customer_id: string
  /** Where its money lands: closing that account is refused while the invoice is OPEN. */
  balance_account_id: string
  status: string
  payment_state: string
  overdue: boolean
  /** YYYY-MM-DD (UTC), kept as text so a range compares as the API's dates do. */
  due_date: string
  /** Set once OPEN: a deposit's reference finds its invoice by it. */
  payment_reference: string | null
  state: Json<ExistingInvoice>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface InvoiceDatabase {
  invoices: InvoicesTable
}
