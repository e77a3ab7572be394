// How invoice commands are handled: one stream per invoice, started by its creation under a fresh
// inv_ id; routes answer with the invoice resource.
import { type InvoiceCommand, invoiceDecider } from '../../domain/invoice/decider.js'
import type { InvoiceState } from '../../domain/invoice/state.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

export const invoiceStreamOf = (invoiceId: string): string => streams.invoice(invoiceId)

export const invoiceCommands = {
  decider: invoiceDecider,
  streamOf: (command: InvoiceCommand) => invoiceStreamOf(command.invoiceId),
}

/** The binding routes handle invoice commands through, answering with the state (the route makes the resource). */
export const invoiceBinding = deciderBinding({
  ...invoiceCommands,
  startsStream: (command) => command.type === 'CreateInvoice',
  toResource: (state: InvoiceState) => state,
})
