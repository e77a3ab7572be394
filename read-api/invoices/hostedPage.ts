// The hosted invoice page (GET /v1/invoices/{id}/hosted): what the payer owes and how to pay it, as
// HTML. Every value is escaped; the page loads nothing from anywhere (no script, no style sheet).
import type { InvoiceResource } from '../../domain/invoice/resource.js'
import type { MoneyWire } from '../../domain/shared/money/index.js'
import { formatDecimal, requireExponent } from '../../domain/shared/money/index.js'
import type { StoredFixedRoute } from '../../projections/fixedRouteSchema.js'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

const money = (m: MoneyWire): string => `${formatDecimal(BigInt(m.value), requireExponent(m.currency))} ${m.currency}`

const row = (label: string, value: string) => `<tr><th>${escape(label)}</th><td>${escape(value)}</td></tr>`

function routeCoordinates(route: StoredFixedRoute): string {
  const source = route.sourceAccount
  const d = source.depositInstructions
  const lines: [string, string | null][] = d
    ? [
        ['Bank', d.bankName],
        ['Account number', d.accountNumber],
        ['Routing number', d.routingNumber],
        ['IBAN', d.iban],
        ['SWIFT/BIC', d.swiftBic],
        ['Beneficiary', d.beneficiaryName],
        ['Rails', source.sourceRails.join(', ')],
      ]
    : [
        ['Wallet address', source.walletAddress],
        ['Chain', source.chains.join(', ')],
      ]
  return `<table>${lines.flatMap(([label, value]) => (value ? [row(label, value)] : [])).join('')}</table>`
}

function howToPay(invoice: InvoiceResource, routes: readonly StoredFixedRoute[]): string {
  const instructions = invoice.paymentInstructions
  if (invoice.status !== 'OPEN' || instructions === null) return `<p>This invoice is ${escape(invoice.status)}: it takes no payment.</p>`
  const reference = `<p>Payment reference (required): <strong>${escape(instructions.reference)}</strong></p>`
  const coordinates =
    routes.length > 0
      ? routes.map(routeCoordinates).join('')
      : `<p>Pay into balance account ${escape(instructions.balanceAccountId)} (${escape(invoice.currency)}) through your provider.</p>`
  return `<h2>How to pay</h2>${reference}${coordinates}`
}

export function hostedInvoicePage(invoice: InvoiceResource, routes: readonly StoredFixedRoute[]): string {
  const items = invoice.lineItems
    .map(
      (l) => `<tr><td>${escape(l.description)}</td><td>${l.quantity}</td><td>${money(l.unitAmount)}</td><td>${money(l.amount)}</td></tr>`,
    )
    .join('')
  const summary = [
    row('Invoice', invoice.id),
    row('Billed to', invoice.payer.name),
    row('Status', invoice.overdue ? `${invoice.status} (overdue)` : invoice.status),
    row('Due date', invoice.dueDate),
    row('Total', money(invoice.total)),
    row('Paid', money(invoice.amountPaid)),
    row('Amount due', money(invoice.amountRemaining)),
  ].join('')
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>Invoice ${escape(invoice.id)}</title></head><body>`,
    `<h1>Invoice ${escape(invoice.id)}</h1><table>${summary}</table>`,
    invoice.memo ? `<p>${escape(invoice.memo)}</p>` : '',
    `<table><tr><th>Description</th><th>Quantity</th><th>Unit price</th><th>Amount</th></tr>${items}</table>`,
    howToPay(invoice, routes),
    '</body></html>',
  ].join('')
}
