// The invoice's timer command as the scheduler stores it (commands/scheduler/schedulableCommands.ts), and
// the command it stands for when it fires: the overdue mark, a no-op for an invoice paid or cancelled.
import { z } from 'zod'
import type { InvoiceCommand } from '../../domain/invoice/decider.js'

const id = z.string().min(1).max(100)

/** The timer as the scheduler stores it (commands/scheduler/schedulableCommands.ts). */
export const invoiceTimerCommand = z.strictObject({ type: z.literal('MarkInvoiceOverdue'), organizationId: id, invoiceId: id })

export const invoiceCommandAtFiring = (stored: z.infer<typeof invoiceTimerCommand>, now: Date): InvoiceCommand => ({
  ...stored,
  now: now.toISOString(),
})
