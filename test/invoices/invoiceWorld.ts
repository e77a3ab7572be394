// Helpers of the invoice tests, all through HTTP: an invoice body, creating one for a payee, driving it
// to OPEN, the sandbox payer, and reads.
import type { Client } from '../harness/httpClient.js'

export type Invoice = Record<string, unknown> & {
  id: string
  status: string
  paymentState: string
  overdue: boolean
  customerId: string
  amountDue: { value: string; currency: string }
  amountPaid: { value: string; currency: string }
  amountRemaining: { value: string; currency: string }
  paymentInstructions: { reference: string; balanceAccountId: string; hostedUrl: string } | null
  payments: Record<string, unknown>[]
}

type Reply = { statusCode: number; body: string; json: <T>() => T }

export function expectStatus<T = Invoice>(res: Reply, status: number, what = 'request'): T {
  if (res.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${res.statusCode}: ${res.body}`)
  return res.json() as T
}

/** An invoice of 50.00 USD (2 x 15.00 + 20.00) due on `dueDate`. */
export const invoiceBody = (customerId: string, overrides: Record<string, unknown> = {}) => ({
  customerId,
  currency: 'USD',
  payer: { name: 'Grace Hopper', email: 'grace@example.com', address: addressOf() },
  lineItems: [
    { description: 'Consulting hour', quantity: 2, unitAmount: '1500' },
    { description: 'Travel', quantity: 1, unitAmount: '2000' },
  ],
  dueDate: '2026-12-15',
  memo: 'Thank you',
  metadata: { order: 'A-17' },
  ...overrides,
})

function addressOf() {
  return { addressLine1: '1 Navy Way', city: 'Arlington', state: 'VA', postalCode: '22201', country: 'US' }
}

export const createInvoice = (h: Client, body: object, headers: Record<string, string> = {}) =>
  h.request({ method: 'POST', url: '/v1/invoices', payload: body, headers })

export const invoiceAction = (h: Client, id: string, action: 'finalize' | 'send' | 'cancel', payload?: object) =>
  h.request({ method: 'POST', url: `/v1/invoices/${id}/${action}`, ...(payload ? { payload } : {}) })

export const getInvoice = (h: Client, id: string) => h.request({ method: 'GET', url: `/v1/invoices/${id}` })

export const simulatePayment = (h: Client, id: string, amount: string, depositReference?: string) =>
  h.request({
    method: 'POST',
    url: `/v1/sandbox/invoices/${id}/simulate-payment`,
    payload: { amount, ...(depositReference ? { depositReference } : {}) },
  })

/** A DRAFT invoice of the body, then OPEN by `send`. */
export async function openInvoice(h: Client, customerId: string, overrides: Record<string, unknown> = {}): Promise<Invoice> {
  const draft = expectStatus(await createInvoice(h, invoiceBody(customerId, overrides)), 201, 'create invoice')
  return expectStatus(await invoiceAction(h, draft.id, 'send'), 200, 'send invoice')
}
