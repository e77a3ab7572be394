// Invoice payments after a crash (issue 28; commands/invoices/invoicePayments.ts does both at once in the
// request): a simulated payment the invoice took is credited to its balance account (once, by the
// credit's cause), and a deposit at a fixed route carrying an invoice's reference is applied to the
// invoice (once, by the deposit's sweep id). Each step is a no-op the second time.
import { FixedRouteDepositReceived } from '../../domain/account/events.js'
import { InvoicePaymentApplied } from '../../domain/invoice/events.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { creditAppliedPayment, matchFixedRouteDeposit } from '../invoices/invoicePayments.js'
import type { Workflow, WorkflowCommand } from './workflow.js'

export const invoicePayments: Workflow = {
  name: 'invoice_payments',
  handles: new Set(['InvoicePaymentApplied', 'FixedRouteDepositReceived']),
  commandsFor(event): WorkflowCommand[] {
    const organizationId = organizationOfEvent(event)
    if (event.type === 'InvoicePaymentApplied') {
      const applied = InvoicePaymentApplied.parse(event.data)
      // A fixed route's deposit is credited by its sweep, not here.
      if (applied.source !== 'SIMULATION') return []
      return [{ step: 'credit-balance', organizationId, run: (commands, context) => creditAppliedPayment(commands, applied, context) }]
    }
    const deposit = FixedRouteDepositReceived.parse(event.data)
    if (!(deposit.paymentReference ?? deposit.reference).toUpperCase().startsWith('INV')) return []
    return [
      {
        step: 'match-invoice',
        organizationId,
        run: async (commands, context) => ({ position: (await matchFixedRouteDeposit(commands, deposit, context)).position }),
      },
    ]
  },
}
