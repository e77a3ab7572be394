// Projects FX trades: one row per trade holding the aggregate's state, evolved with the decider's
// own evolve (so the read side never drifts from the write side), and the status copied out for
// the operator's queries. The read API makes the resource from the state.
import type { Kysely } from 'kysely'
import { type FxTradeState, fxTradeDecider } from '../domain/fx-trade/decider.js'
import type { FxTradeEvent } from '../domain/fx-trade/events.js'
import { fxTradeEventSchemas } from '../domain/fx-trade/events.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'
import type { ReadDatabase } from './schema.js'

async function stateOf(db: Kysely<ReadDatabase>, tradeId: string): Promise<FxTradeState> {
  const row = await db.selectFrom('fx_trades').select('state').where('id', '=', tradeId).executeTakeFirst()
  return row?.state ?? fxTradeDecider.initialState()
}

export const fxTradesProjector: Projector = {
  name: 'fx_trades',
  tables: ['fx_trades'],
  handles: new Set(Object.keys(fxTradeEventSchemas)),
  async apply(db, recorded) {
    const event = parsedEvent<FxTradeEvent>(recorded)
    const before = event.type === 'FxTradeCreated' ? fxTradeDecider.initialState() : await stateOf(db, event.data.tradeId)
    const state = fxTradeDecider.evolve(before, event)
    if (state.status === 'none') throw new Error(`trade ${event.data.tradeId} has no state after ${event.type}`)
    const row = {
      id: state.trade.tradeId,
      organization_id: state.trade.organizationId,
      customer_id: state.trade.customerId,
      status: state.status,
      state: toJson(state),
      created_at: state.trade.createdAt,
      updated_at: state.updatedAt,
    }
    await db
      .insertInto('fx_trades')
      .values(row)
      .onConflict((c) => c.column('id').doUpdateSet({ status: row.status, state: row.state, updated_at: row.updated_at }))
      .execute()
  },
}
