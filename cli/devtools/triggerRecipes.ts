// How `trigger` produces each public event type it knows, through the real operations of the API (the
// sandbox routes drive what a bank or a reviewer would do). A recipe returns the resource id its event
// names, for finding the message; `webhook.test` has no recipe here (it needs an endpoint: trigger.ts).
import type { PublicEventType } from '../../domain/publicEvents.js'
import {
  type StepContext,
  advanceUntil,
  approvedCustomer,
  balanceAccount,
  balancePayout,
  depositTransfer,
  draftCustomer,
  fundIn,
  updateCustomer,
} from './sandboxSteps.js'

type Recipe = (context: StepContext) => Promise<string>

/** An invoice of 30.00 USD, due in 30 days, from an approved customer holding a USD balance (where its payments land). */
async function invoice(context: StepContext): Promise<string> {
  const customerId = await approvedCustomer(context)
  await balanceAccount(context, customerId)
  const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
  const created = await context.client.createInvoice({
    customerId,
    currency: 'USD',
    dueDate,
    payer: { name: 'Grace Hopper', email: 'grace@example.com' },
    lineItems: [{ description: 'Consulting hour', quantity: 2, unitAmount: '1500' }],
  })
  context.created.invoice = created.id
  return created.id
}

async function sentInvoice(context: StepContext): Promise<string> {
  const id = await invoice(context)
  await context.client.sendInvoice(id)
  return id
}

async function completedTransfer(context: StepContext): Promise<string> {
  const transfer = await depositTransfer(context)
  await context.client.simulateTransferDeposit(transfer.id)
  await advanceUntil(context, transfer.id, 'COMPLETED')
  return transfer.id
}

export const TRIGGER_RECIPES: Partial<Record<PublicEventType, Recipe>> = {
  'customer.created': (c) => draftCustomer(c),
  'customer.updated': async (c) => {
    const id = await draftCustomer(c)
    await updateCustomer(c, id)
    return id
  },
  'customer.deleted': async (c) => {
    const id = await draftCustomer(c)
    await c.client.deleteCustomer(id)
    return id
  },
  'customer.status_changed': (c) => approvedCustomer(c),
  'customer.verified': (c) => approvedCustomer(c),
  'balance.credited': async (c) => {
    const account = await balanceAccount(c, await approvedCustomer(c))
    await fundIn(c, account)
    return account
  },
  'balance.debited': async (c) => {
    const { accountId, transfer } = await balancePayout(c)
    await advanceUntil(c, transfer.id, 'COMPLETED')
    return accountId
  },
  'transfer.created': async (c) => (await depositTransfer(c)).id,
  'transfer.processing': async (c) => {
    const transfer = await depositTransfer(c)
    await c.client.simulateTransferDeposit(transfer.id)
    return transfer.id
  },
  'transfer.updated': completedTransfer,
  'transfer.completed': completedTransfer,
  'transfer.failed': async (c) => {
    const transfer = await depositTransfer(c, '1313')
    await advanceUntil(c, transfer.id, 'FAILED')
    return transfer.id
  },
  'transfer.cancelled': async (c) => {
    const transfer = await depositTransfer(c)
    await c.client.cancelTransfer(transfer.id)
    return transfer.id
  },
  'transfer.refund_initiated': async (c) => {
    const transfer = await depositTransfer(c, '3131')
    await c.client.simulateTransferDeposit(transfer.id)
    await advanceUntil(c, transfer.id, 'IN_REVIEW')
    await c.client.refundTransfer(transfer.id)
    return transfer.id
  },
  'transfer.reversed': async (c) => {
    const id = await completedTransfer(c)
    await c.client.reverseSandboxTransfer(id)
    return id
  },
  'invoice.created': invoice,
  'invoice.sent': sentInvoice,
  'invoice.paid': async (c) => {
    const id = await sentInvoice(c)
    await c.client.simulateInvoicePayment(id, { amount: '3000', depositReference: `trigger-${id}` })
    return id
  },
  'invoice.cancelled': async (c) => {
    const id = await sentInvoice(c)
    await c.client.cancelInvoice(id)
    return id
  },
}

/** Every type `trigger` takes, sorted: the recipes and webhook.test. */
export const SUPPORTED_TRIGGERS: readonly string[] = ['webhook.test', ...Object.keys(TRIGGER_RECIPES)].sort()
