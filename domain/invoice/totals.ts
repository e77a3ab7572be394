// An invoice's totals, computed by the service and never taken from the caller: each line's amount is
// quantity x unit amount, the subtotal their sum, the total the subtotal (no tax or discount yet). All
// in BigInt minor units, so nothing rounds; each line and the total are held to the one amount bound
// (10^12 major units, shared/money/bounds.ts), so an accepted invoice fits every later step.
import { type ErrorDetail, invalid } from '../errors.js'
import { amountBoundProblems, maxAmountMinor } from '../shared/money/index.js'
import type { LineItemInput } from './invoiceBody.js'

/** Details in one refusal: 101 lines may all be too large, and ten say enough. */
const MAX_DETAILS = 10

/** A line as events store it: its amount computed, minor units as strings. */
export type LineItem = { description: string; quantity: number; unitAmountMinor: string; amountMinor: string }

export type InvoiceTotals = { lineItems: LineItem[]; subtotalMinor: string; totalMinor: string }

/** Throws 422 amount_too_large naming each line (and the total) above the bound, and 422 invoice_total_zero for a zero total. */
export function computeTotals(currency: string, items: readonly LineItemInput[]): InvoiceTotals {
  const bound = maxAmountMinor(currency)
  if (bound === undefined) throw new RangeError(`Unknown currency ${JSON.stringify(currency)}`)
  const amounts = items.map((item) => BigInt(item.quantity) * BigInt(item.unitAmount))
  const subtotal = amounts.reduce((sum, amount) => sum + amount, 0n)
  const problems: ErrorDetail[] = amountBoundProblems([
    ...amounts.map((amountMinor, i) => ({ field: `body.lineItems.${i}`, money: { currency, amountMinor } })),
    { field: 'body.lineItems', money: { currency, amountMinor: subtotal } },
  ])
  if (problems.length > 0)
    throw invalid('amount_too_large', 'A line or the total is above the largest amount the service takes', problems.slice(0, MAX_DETAILS))
  if (subtotal === 0n)
    throw invalid('invoice_total_zero', 'An invoice must ask for some money', [
      { field: 'body.lineItems', message: 'the total must be above zero' },
    ])
  const lineItems = items.map((item, i) => ({
    description: item.description,
    quantity: item.quantity,
    unitAmountMinor: item.unitAmount,
    amountMinor: amounts[i]!.toString(),
  }))
  // The total is the subtotal today; a tax or a discount would sit between them.
  return { lineItems, subtotalMinor: subtotal.toString(), totalMinor: subtotal.toString() }
}
