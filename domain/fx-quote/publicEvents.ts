// Public events of FX quotes: an expired quote becomes `fx_quote.expired`, with the quote as GET
// shows it at that instant. Creation and acceptance are not published (the trade's events are).
import { publicEventMappersOf } from '../publicEvents.js'
import { FxQuoteExpired, type FxQuoteEvent } from './events.js'

export const fxQuotePublicEvents = publicEventMappersOf<FxQuoteEvent>({
  FxQuoteExpired: (event) => {
    const e = FxQuoteExpired.parse(event.data)
    return {
      type: 'fx_quote.expired',
      data: { id: e.quoteId, customerId: e.customerId, status: 'EXPIRED', expiresAt: e.expiresAt, expiredAt: e.expiredAt },
      tags: [e.quoteId, e.customerId],
    }
  },
})
