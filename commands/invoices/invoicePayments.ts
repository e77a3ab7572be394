// A payer's deposit for an invoice (issue 28), wherever it comes from:
//   - the sandbox's simulated payer (POST /v1/sandbox/invoices/{id}/simulate-payment): the invoice takes
//     the deposit first (ApplyInvoicePayment: the part due, the excess), then the payee's balance account
//     is credited the whole amount under the cause `invoice-payment:<inv>:<deposit>`; a deposit the
//     invoice cannot take (not OPEN, already paid) is credited under `invoice-unmatched:<inv>:<deposit>`.
//     Both causes are one credit (`sameAs`), so a replay never credits twice, whichever answer it had.
//     A crash between the two steps is the workflow's to finish (invoicePaymentWorkflow.ts credits
//     every applied SIMULATION payment, once by its cause).
//   - a deposit at a fixed route whose payment reference (or, lacking one, its own reference) is the invoice's:
//     the route's sweep moves the money
//     (into the balance account, like any deposit); the invoice takes it when the route is the payee's
//     and sweeps into the invoice's balance account, the deposit not held. Its deposit reference is the
//     sweep transfer's id (one per deposit), so a replayed deposit counts once.
import { type OpenAccountState, accountDecider } from '../../domain/account/decider.js'
import { invoiceCreditCauses } from '../../domain/account/creditCause.js'
import type { z } from 'zod'
import type { FixedRouteDepositReceived } from '../../domain/account/events.js'
import { conflict } from '../../domain/errors.js'
import { type InvoiceCommand, invoiceDecider, isNotPayable } from '../../domain/invoice/decider.js'
import type { PaymentSource } from '../../domain/invoice/events.js'
import { parsePaymentReference } from '../../domain/invoice/paymentReference.js'
import type { ExistingInvoice } from '../../domain/invoice/state.js'
import { asFixedRoute } from '../../domain/fixed-route/resource.js'
import { recentHas } from '../../domain/shared/recentEntries.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { invoiceStreamOf } from './invoiceCommands.js'

export type InvoiceDeposit = { amountMinor: bigint; depositReference: string; source: PaymentSource }

export type InvoiceDepositOutcome = {
  /** True when the invoice took the deposit (now or before); false when it went to the balance unmatched. */
  matched: boolean
  /** False for a replay (this deposit was seen before): nothing was credited again. */
  credited: boolean
  invoice: ExistingInvoice
  position: Position | undefined
}

const applyCommand = (invoice: ExistingInvoice, deposit: InvoiceDeposit): InvoiceCommand => ({
  type: 'ApplyInvoicePayment',
  organizationId: invoice.organizationId,
  invoiceId: invoice.invoiceId,
  currency: invoice.currency,
  amountMinor: deposit.amountMinor.toString(),
  depositReference: deposit.depositReference,
  source: deposit.source,
  now: new Date().toISOString(),
})

async function balanceAccountOf(commands: Commands, invoice: ExistingInvoice): Promise<OpenAccountState> {
  const { state } = await commands.load(accountDecider, streams.account(invoice.balanceAccountId))
  // Closing it is refused while the invoice is OPEN; a PAID or CANCELLED invoice's account may be gone.
  if (state.status !== 'ACTIVE')
    throw conflict('account_closed', `Account ${invoice.balanceAccountId}, where invoice ${invoice.invoiceId}'s money lands, is not active`)
  return state
}

/**
 * Credits a deposit for `invoice` to its balance account, under the cause that says whether the invoice took it; the
 * other cause is the same credit (`sameAs`), so a deposit is credited once whichever answer it first had.
 */
function creditDeposit(
  commands: Commands,
  invoice: ExistingInvoice,
  deposit: Pick<InvoiceDeposit, 'amountMinor' | 'depositReference'>,
  applied: boolean,
  origin: CommandOrigin,
) {
  const causes = invoiceCreditCauses(invoice.invoiceId, deposit.depositReference)
  const [cause, sameAs] = applied ? [causes.applied, causes.unmatched] : [causes.unmatched, causes.applied]
  return commands.handle(
    accountDecider,
    streams.account(invoice.balanceAccountId),
    {
      type: 'CreditFunds',
      organizationId: invoice.organizationId,
      accountId: invoice.balanceAccountId,
      cause,
      sameAs: [sameAs],
      currency: invoice.currency,
      amountMinor: deposit.amountMinor,
      source: 'world',
      now: new Date().toISOString(),
    },
    origin,
  )
}

/** The simulated payer's deposit: the invoice takes what it can, the balance account is credited the whole amount. */
export async function payInvoice(
  commands: Commands,
  invoice: ExistingInvoice,
  deposit: InvoiceDeposit,
  origin: CommandOrigin,
): Promise<InvoiceDepositOutcome> {
  const account = await balanceAccountOf(commands, invoice)
  const causes = invoiceCreditCauses(invoice.invoiceId, deposit.depositReference)
  const creditedUnmatched = recentHas(account.credits, causes.unmatched)
  let state = invoice
  let matched = false
  let appliedNow = false
  let position: Position | undefined
  // A deposit credited unmatched before stays so: the invoice does not take it on a replay.
  if (!creditedUnmatched) {
    try {
      const applied = await commands.handle(invoiceDecider, invoiceStreamOf(invoice.invoiceId), applyCommand(invoice, deposit), origin)
      if (applied.state.status !== 'none' && applied.state.status !== 'deleted') state = applied.state
      matched = true
      appliedNow = applied.events.length > 0
      position = applied.position
    } catch (error) {
      if (!isNotPayable(error)) throw error
    }
  }
  const credit = await creditDeposit(commands, invoice, deposit, matched, origin)
  // A new deposit the invoice took counts as credited here even when the workflow's credit got there first.
  return { matched, credited: appliedNow || credit.events.length > 0, invoice: state, position: credit.position ?? position }
}

/** Credits the balance account for a payment the invoice took (the workflow: the crash gap of payInvoice). */
export async function creditAppliedPayment(
  commands: Commands,
  applied: { invoiceId: string; depositReference: string; amountMinor: string },
  origin: CommandOrigin,
): Promise<{ position: Position | undefined }> {
  const { state } = await commands.load(invoiceDecider, invoiceStreamOf(applied.invoiceId))
  if (state.status === 'none' || state.status === 'deleted') throw new Error(`invoice ${applied.invoiceId} is gone after a payment`)
  const deposit = { amountMinor: BigInt(applied.amountMinor), depositReference: applied.depositReference }
  const result = await creditDeposit(commands, state, deposit, true, origin)
  return { position: result.position }
}

/**
 * A deposit recorded at a fixed route whose reference names an invoice of the route's customer: the
 * invoice takes it when it can (its money is the sweep's to move). Not matched (another customer's
 * invoice, a route sweeping elsewhere, a held deposit, an invoice that cannot take it): nothing here.
 */
export async function matchFixedRouteDeposit(
  commands: Commands,
  recorded: Pick<
    z.infer<typeof FixedRouteDepositReceived>,
    'accountId' | 'organizationId' | 'customerId' | 'reference' | 'paymentReference' | 'amount' | 'hold' | 'transferId'
  >,
  origin: CommandOrigin,
): Promise<{ matched: boolean; invoiceId: string | null; position: Position | undefined }> {
  const none = { matched: false, invoiceId: null, position: undefined }
  const parsed = parsePaymentReference(recorded.paymentReference ?? recorded.reference)
  if (!parsed.ok || recorded.hold !== null) return none
  const { state: invoice } = await commands.load(invoiceDecider, invoiceStreamOf(parsed.invoiceId))
  if (invoice.status === 'none' || invoice.status === 'deleted') return none
  if (invoice.organizationId !== recorded.organizationId || invoice.customerId !== recorded.customerId) return none
  const { state: routeState } = await commands.load(accountDecider, streams.account(recorded.accountId))
  const route = routeState.status === 'none' ? undefined : asFixedRoute(routeState)
  if (!route || route.account.details.route.sweepTargetAccountId !== invoice.balanceAccountId) return none
  if (recorded.amount.currency !== invoice.currency) return none
  const deposit: InvoiceDeposit = {
    amountMinor: BigInt(recorded.amount.amountMinor),
    depositReference: recorded.transferId,
    source: 'FIXED_ROUTE',
  }
  try {
    const applied = await commands.handle(invoiceDecider, invoiceStreamOf(invoice.invoiceId), applyCommand(invoice, deposit), origin)
    return { matched: true, invoiceId: invoice.invoiceId, position: applied.position }
  } catch (error) {
    if (isNotPayable(error)) return none
    throw error
  }
}
