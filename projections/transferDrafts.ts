// Projects transfer drafts: one row per draft holding the aggregate's state, evolved with the
// decider's own evolve (the read side never drifts from the write side), the status copied out for
// queries. The read API makes the approval record from the state.
import type { Kysely } from 'kysely'
import { type TransferDraftState, transferDraftDecider } from '../domain/transfer-draft/decider.js'
import { type TransferDraftEvent, transferDraftEventSchemas } from '../domain/transfer-draft/events.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'
import type { ReadDatabase } from './schema.js'

async function stateOf(db: Kysely<ReadDatabase>, draftId: string): Promise<TransferDraftState> {
  const row = await db.selectFrom('transfer_drafts').select('state').where('id', '=', draftId).executeTakeFirst()
  return row?.state ?? transferDraftDecider.initialState()
}

export const transferDraftsProjector: Projector = {
  name: 'transfer_drafts',
  tables: ['transfer_drafts'],
  handles: new Set(Object.keys(transferDraftEventSchemas)),
  async apply(db, recorded) {
    const event = parsedEvent<TransferDraftEvent>(recorded)
    const before = event.type === 'TransferDraftRegistered' ? transferDraftDecider.initialState() : await stateOf(db, event.data.draftId)
    const state = transferDraftDecider.evolve(before, event)
    if (state.status === 'none') throw new Error(`draft ${event.data.draftId} has no state after ${event.type}`)
    const row = {
      id: state.draft.draftId,
      organization_id: state.draft.organizationId,
      customer_id: state.draft.customerId,
      status: state.status,
      state: toJson(state),
      created_at: state.draft.createdAt,
      updated_at: state.updatedAt,
    }
    await db
      .insertInto('transfer_drafts')
      .values(row)
      .onConflict((c) => c.column('id').doUpdateSet({ status: row.status, state: row.state, updated_at: row.updated_at }))
      .execute()
  },
}
