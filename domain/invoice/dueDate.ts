// Due dates are calendar days in UTC, so an answer never depends on the server's time zone. An invoice
// is due through its due date and overdue from the start of the next day (Stripe counts the same way).
import { type ErrorDetail } from '../errors.js'
import { INVOICE_LIMITS } from './invoiceBody.js'

const DAY_MS = 86_400_000

const dayOf = (date: string): number => Date.parse(`${date}T00:00:00.000Z`)

/** The first moment the invoice is overdue: 00:00 UTC of the day after its due date. */
export const overdueFrom = (dueDate: string): string => new Date(dayOf(dueDate) + DAY_MS).toISOString()

export const isPastDue = (dueDate: string, now: string): boolean => now >= overdueFrom(dueDate)

/** Why `dueDate` cannot be given at `now` (in the past, or too far ahead), or nothing. */
export function dueDateProblems(dueDate: string, now: string, field = 'body.dueDate'): ErrorDetail[] {
  const today = dayOf(now.slice(0, 10))
  const due = dayOf(dueDate)
  if (due < today) return [{ field, message: `must be today (${now.slice(0, 10)}) or later`, value: dueDate }]
  if (due > today + INVOICE_LIMITS.maxDueInDays * DAY_MS)
    return [{ field, message: `must be at most ${INVOICE_LIMITS.maxDueInDays} days ahead`, value: dueDate }]
  return []
}
