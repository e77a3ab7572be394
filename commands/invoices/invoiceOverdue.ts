// An OPEN invoice's due date on the scheduler (issue 28): a consumer of InvoiceFinalized puts a
// MarkInvoiceOverdue command on the timer table for 00:00 UTC of the day after the due date, in the same
// transaction as its checkpoint (the row id is the invoice's, so a replay schedules none twice). When it
// fires, the decider marks the invoice overdue once (invoice.overdue), or does nothing for an invoice
// paid or cancelled meanwhile.
import type { Kysely } from 'kysely'
import { overdueFrom } from '../../domain/invoice/dueDate.js'
import { InvoiceFinalized } from '../../domain/invoice/events.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'
import { invoiceStreamOf } from './invoiceCommands.js'

export const invoiceOverdueTimerId = (invoiceId: string) => `invoice-overdue:${invoiceId}`

async function scheduleOverdue(db: Kysely<SchedulerDatabase>, event: RecordedEvent): Promise<void> {
  const { organizationId, invoiceId, dueDate } = InvoiceFinalized.parse(event.data)
  await scheduleCommand(db, {
    id: invoiceOverdueTimerId(invoiceId),
    organizationId,
    aggregate: 'invoice',
    stream: invoiceStreamOf(invoiceId),
    command: { type: 'MarkInvoiceOverdue', organizationId, invoiceId },
    dueAt: new Date(overdueFrom(dueDate)),
  })
}

/** Runs with the workflows (it owns no read-model table): see commands/scheduler/timerConsumers.ts. */
export const invoiceOverdueScheduling: Consumer<SchedulerDatabase> = {
  name: 'invoice_overdue_timers',
  handles: new Set(['InvoiceFinalized']),
  async apply(trx, events) {
    for (const event of events) await scheduleOverdue(trx, event)
  },
}
