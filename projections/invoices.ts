// Projects invoices: one row per invoice holding the aggregate's state, evolved with the decider's own
// evolve (the read side never drifts from the write side), the payer sealed under the payee customer's
// key, and the list's filter columns (status, payment state, overdue, due date) copied out of it. A
// deleted draft's row is removed: it no longer exists for reads.
import type { Kysely } from 'kysely'
import { invoiceDecider } from '../domain/invoice/decider.js'
import { type InvoiceEvent, invoiceEventSchemas } from '../domain/invoice/events.js'
import { paymentAmounts } from '../domain/invoice/paymentState.js'
import { type InvoiceState, isOverdue } from '../domain/invoice/state.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'
import type { ReadDatabase } from './schema.js'
import { type DataProtection, sealedInvoiceState } from './sealedColumns.js'

async function stateOf(db: Kysely<ReadDatabase>, protection: DataProtection, invoiceId: string): Promise<InvoiceState> {
  const row = await db.selectFrom('invoices').select(['state', 'customer_id']).where('id', '=', invoiceId).executeTakeFirst()
  if (!row) return invoiceDecider.initialState()
  return sealedInvoiceState.open(protection, invoiceId, row.state, row.customer_id)
}

export const invoicesProjector: Projector = {
  name: 'invoices',
  tables: ['invoices'],
  handles: new Set(Object.keys(invoiceEventSchemas)),
  async apply(db, recorded, ctx) {
    const event = parsedEvent<InvoiceEvent>(recorded)
    const id = event.data.invoiceId
    const before = event.type === 'InvoiceCreated' ? invoiceDecider.initialState() : await stateOf(db, ctx.protection, id)
    const state = invoiceDecider.evolve(before, event)
    if (state.status === 'none') throw new Error(`invoice ${id} has no state after ${event.type}`)
    if (state.status === 'deleted') {
      await db.deleteFrom('invoices').where('id', '=', id).execute()
      return
    }
    const sealed = await sealedInvoiceState.seal(ctx.protection, id, state, state.customerId)
    const row = {
      id,
      organization_id: state.organizationId,
      customer_id: state.customerId,
      balance_account_id: state.balanceAccountId,
      status: state.status,
      payment_state: paymentAmounts(state.content.totalMinor, state.amountPaidMinor).paymentState,
      overdue: isOverdue(state),
      due_date: state.content.dueDate,
      payment_reference: state.paymentReference,
      state: toJson(sealed),
      created_at: state.createdAt,
      updated_at: state.updatedAt,
    }
    const { id: _id, organization_id: _o, customer_id: _c, balance_account_id: _b, created_at: _cr, ...changes } = row
    await db
      .insertInto('invoices')
      .values(row)
      .onConflict((c) => c.column('id').doUpdateSet(changes))
      .execute()
  },
}
