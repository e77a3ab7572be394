// Counts each organization's accounts (every kind and status: an account is never deleted), so
// the unfiltered account list answers its total from one row instead of counting 100 000 index
// entries (docs/explain-accounts.md). Opened accounts only: no other event changes the count.
import { sql } from 'kysely'
import type { AccountEvent } from '../domain/account/events.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'

export const accountCountsProjector: Projector = {
  name: 'account_counts',
  tables: ['account_counts'],
  handles: new Set(['AccountOpened']),
  async apply(db, recorded) {
    const event = parsedEvent<AccountEvent>(recorded)
    if (event.type !== 'AccountOpened') return
    await db
      .insertInto('account_counts')
      .values({ organization_id: event.data.organizationId, accounts: '1' })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet({ accounts: sql`account_counts.accounts + 1` }))
      .execute()
  },
}
