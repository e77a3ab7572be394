// FX quotes expire on the scheduler: a consumer of FxQuoteCreated puts an ExpireFxQuote command on
// the timer table for the quote's expiresAt, in the same transaction as its checkpoint (so a crash
// loses no timer and a replay schedules none twice: the row id is the quote's). The quote ignores
// the timer once accepted; an expiry is what sends fx_quote.expired.
import type { Kysely } from 'kysely'
import { FxQuoteCreated } from '../../domain/fx-quote/events.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'
import { fxQuoteStreamOf } from './quoteCommands.js'

export const quoteExpiryTimerId = (quoteId: string) => `fx-quote-expiry:${quoteId}`

async function scheduleExpiry(db: Kysely<SchedulerDatabase>, event: RecordedEvent): Promise<void> {
  const quote = FxQuoteCreated.parse(event.data)
  await scheduleCommand(db, {
    id: quoteExpiryTimerId(quote.quoteId),
    organizationId: quote.organizationId,
    aggregate: 'fxQuote',
    stream: fxQuoteStreamOf(quote.quoteId),
    command: { type: 'ExpireFxQuote', organizationId: quote.organizationId, quoteId: quote.quoteId },
    dueAt: new Date(quote.expiresAt),
  })
}

/** Runs with the workflows (it owns no read-model table): see commands/scheduler/timerConsumers.ts. */
export const fxQuoteExpiryScheduling: Consumer<SchedulerDatabase> = {
  name: 'fx_quote_expiry_timers',
  handles: new Set(['FxQuoteCreated']),
  async apply(trx, events) {
    for (const event of events) await scheduleExpiry(trx, event)
  },
}
