// Counts each organization's accounts (every kind and status: an account is never deleted), so
// the unfiltered account list answers its total from one row instead of counting 100 000 index
// entries (docs/explain-accounts.md). Opened accounts only: no other event changes the count.
import { type Kysely, sql } from 'kysely'
import type { AccountEvent } from '../domain/account/events.js'
import type { RecordedEvent } from '../events/store/port.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'
import type { ReadDatabase } from './schema.js'

/** Adds the batch's openings to their organizations' counts: one statement per organization. */
async function addOpenings(db: Kysely<ReadDatabase>, events: RecordedEvent[]): Promise<void> {
  const added = new Map<string, number>()
  for (const recorded of events) {
    const event = parsedEvent<AccountEvent>(recorded)
    if (event.type === 'AccountOpened') added.set(event.data.organizationId, (added.get(event.data.organizationId) ?? 0) + 1)
  }
  for (const [organizationId, count] of added) {
    await db
      .insertInto('account_counts')
      .values({ organization_id: organizationId, accounts: String(count) })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet({ accounts: sql`account_counts.accounts + excluded.accounts` }))
      .execute()
  }
}

export const accountCountsProjector: Projector = {
  name: 'account_counts',
  tables: ['account_counts'],
  handles: new Set(['AccountOpened']),
  apply: (db, recorded) => addOpenings(db, [recorded]),
  applyMany: (db, events) => addOpenings(db, events),
}
