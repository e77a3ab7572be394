// Who may issue an invoice (issue 28): an APPROVED customer that holds a balance account in the
// invoice's currency, where the payer's money lands. The route loads these facts; the decider checks them.
import { invalid } from '../errors.js'

/** Where the service finds a customer's balance account in a currency (the read models, wired by the server). */
export type PayeeAccountReads = {
  /** The customer's first ACTIVE balance account holding `currency`, or null. */
  balanceAccountOf(organizationId: string, customerId: string, currency: string): Promise<string | null>
}

export type PayeeFacts = {
  /** The customer's status (another organization's customer is a 404 at the route). */
  customerStatus: string
  /** The customer's balance account in the invoice's currency, or null when it holds none. */
  balanceAccountId: string | null
}

/** The balance account the invoice pays into; 422 when the customer may not issue one in `currency`. */
export function payeeAccount(customerId: string, currency: string, facts: PayeeFacts): string {
  if (facts.customerStatus !== 'APPROVED')
    throw invalid('customer_not_approved', `Customer ${customerId} is ${facts.customerStatus}; only an APPROVED customer issues invoices`, [
      { field: 'body.customerId', message: 'must be an APPROVED customer', value: customerId },
    ])
  if (facts.balanceAccountId === null)
    throw invalid('invoice_balance_account_missing', `Customer ${customerId} holds no balance account in ${currency}`, [
      { field: 'body.currency', message: `the customer must hold a balance account in ${currency}`, value: currency },
    ])
  return facts.balanceAccountId
}
