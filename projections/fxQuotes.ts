// Projects FX quotes: one row per quote, the quote as created and its outcome (PENDING, ACCEPTED by
// a trade, EXPIRED). The read API makes the resource from both at the moment it answers (a pending
// quote past expiresAt reads as EXPIRED before its timer fires).
import type { FxQuoteEvent } from '../domain/fx-quote/events.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'

export const fxQuotesProjector: Projector = {
  name: 'fx_quotes',
  tables: ['fx_quotes'],
  handles: new Set(['FxQuoteCreated', 'FxQuoteAccepted', 'FxQuoteExpired']),
  async apply(db, recorded) {
    const event = parsedEvent<FxQuoteEvent>(recorded)
    switch (event.type) {
      case 'FxQuoteCreated': {
        const d = event.data
        await db
          .insertInto('fx_quotes')
          .values({
            id: d.quoteId,
            organization_id: d.organizationId,
            customer_id: d.customerId,
            quote: toJson(d),
            outcome: toJson({ status: 'PENDING' }),
            created_at: d.createdAt,
          })
          .execute()
        return
      }
      case 'FxQuoteAccepted': {
        const d = event.data
        const outcome = toJson({ status: 'ACCEPTED' as const, tradeId: d.tradeId, acceptedAt: d.acceptedAt })
        await db.updateTable('fx_quotes').set({ outcome }).where('id', '=', d.quoteId).execute()
        return
      }
      case 'FxQuoteExpired': {
        const d = event.data
        await db
          .updateTable('fx_quotes')
          .set({ outcome: toJson({ status: 'EXPIRED' as const, expiredAt: d.expiredAt }) })
          .where('id', '=', d.quoteId)
          .execute()
        return
      }
    }
  },
}
