// What a credit's cause names, as the balance history and the balance webhooks show it: a sandbox
// fund-in (its cause is `fund-in:<reference>`, commands/sandbox/fundsSimulationRoutes.ts), a
// credit-line draw (the draw id), a transfer delivered to this balance (`transfer:<tfr_ id>`), a
// transfer's money paid back to it (`transfer-return:<tfr_ id>`, or from suspense by an operator:
// `transfer-resolution:<tfr_ id>:<n>`), a payer's deposit for an invoice (`invoice-payment:<inv_ id>:<deposit
// reference>` when the invoice took it, `invoice-unmatched:...` when it could not: both name the invoice),
// or a deposit (its id).
export const CREDIT_CAUSE_TYPES = ['DEPOSIT', 'FUND_IN', 'DRAW', 'TRANSFER', 'TRANSFER_RETURN', 'INVOICE_PAYMENT'] as const
export type CreditCauseType = (typeof CREDIT_CAUSE_TYPES)[number]

const FUND_IN_PREFIX = 'fund-in:'
export const TRANSFER_CREDIT_PREFIX = 'transfer:'
export const TRANSFER_RETURN_PREFIX = 'transfer-return:'
/** Held money of a transfer an operator sent to this balance (`transfer-resolution:<tfr_ id>:<n>`). */
export const TRANSFER_RESOLUTION_PREFIX = 'transfer-resolution:'

export const INVOICE_PAYMENT_PREFIX = 'invoice-payment:'
export const INVOICE_UNMATCHED_PREFIX = 'invoice-unmatched:'

/** The two causes one deposit for an invoice may credit under: applied to the invoice, or not. */
export const invoiceCreditCauses = (invoiceId: string, depositReference: string) => ({
  applied: `${INVOICE_PAYMENT_PREFIX}${invoiceId}:${depositReference}`,
  unmatched: `${INVOICE_UNMATCHED_PREFIX}${invoiceId}:${depositReference}`,
})

/** The invoice and deposit an invoice credit names, and whether the invoice took it; undefined for any other cause. */
export function invoiceCreditOf(cause: string): { invoiceId: string; depositReference: string; applied: boolean } | undefined {
  const applied = cause.startsWith(INVOICE_PAYMENT_PREFIX)
  if (!applied && !cause.startsWith(INVOICE_UNMATCHED_PREFIX)) return undefined
  const rest = cause.slice((applied ? INVOICE_PAYMENT_PREFIX : INVOICE_UNMATCHED_PREFIX).length)
  const colon = rest.indexOf(':')
  if (colon <= 0) return undefined
  return { invoiceId: rest.slice(0, colon), depositReference: rest.slice(colon + 1), applied }
}

export function creditCauseOf(cause: string, draw: boolean): { type: CreditCauseType; id: string } {
  if (draw) return { type: 'DRAW', id: cause }
  if (cause.startsWith(TRANSFER_CREDIT_PREFIX)) return { type: 'TRANSFER', id: cause.slice(TRANSFER_CREDIT_PREFIX.length) }
  if (cause.startsWith(TRANSFER_RETURN_PREFIX)) return { type: 'TRANSFER_RETURN', id: cause.slice(TRANSFER_RETURN_PREFIX.length) }
  const invoice = invoiceCreditOf(cause)
  if (invoice) return { type: 'INVOICE_PAYMENT', id: invoice.invoiceId }
  if (cause.startsWith(TRANSFER_RESOLUTION_PREFIX))
    return { type: 'TRANSFER_RETURN', id: cause.slice(TRANSFER_RESOLUTION_PREFIX.length).split(':')[0]! }
  return cause.startsWith(FUND_IN_PREFIX) ? { type: 'FUND_IN', id: cause.slice(FUND_IN_PREFIX.length) } : { type: 'DEPOSIT', id: cause }
}
