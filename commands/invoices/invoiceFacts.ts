// What invoice commands read besides the invoice: the invoice itself as the caller may see it (the
// organization's, the X-On-Behalf-Of customer's: 404 otherwise), and the payee's facts (its status
// from its stream, its balance account in the currency through the read models' port).
import { requireCustomer } from '../../domain/customer/guards.js'
import { notFound } from '../../domain/errors.js'
import { invoiceDecider } from '../../domain/invoice/decider.js'
import type { PayeeAccountReads, PayeeFacts } from '../../domain/invoice/payee.js'
import type { ExistingInvoice } from '../../domain/invoice/state.js'
import { loadCustomer } from '../customers/facts.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { invoiceStreamOf } from './invoiceCommands.js'

const INVOICE_ID = /^inv_[0-9a-z]{26}$/

export async function loadInvoice(
  commands: Commands,
  organizationId: string,
  invoiceId: string,
  onBehalfOf?: string,
): Promise<ExistingInvoice> {
  if (!INVOICE_ID.test(invoiceId)) throw notFound('Invoice', invoiceId)
  const { state } = await commands.load(invoiceDecider, invoiceStreamOf(invoiceId))
  if (state.status === 'none' || state.status === 'deleted' || state.organizationId !== organizationId) throw notFound('Invoice', invoiceId)
  if (onBehalfOf !== undefined && state.customerId !== onBehalfOf) throw notFound('Invoice', invoiceId)
  return state
}

/** The payee's facts: its status from its stream (404 for another organization's), its balance account in the currency. */
export async function loadPayeeFacts(
  commands: Commands,
  accounts: PayeeAccountReads,
  organizationId: string,
  customerId: string,
  currency: string,
): Promise<PayeeFacts> {
  const customer = requireCustomer(await loadCustomer(commands, customerId), { organizationId, customerId })
  return { customerStatus: customer.status, balanceAccountId: await accounts.balanceAccountOf(organizationId, customerId, currency) }
}
