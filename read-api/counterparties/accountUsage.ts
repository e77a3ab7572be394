// Whether an account in review or active names a counterparty: the accounts read model's fact
// that a counterparty deletion is refused on (409 counterparty_in_use). A CLOSED account no longer
// holds its counterparty. Read from the read model, so an account opened a moment ago and not yet
// projected is not seen: the account side refuses a deleted counterparty in turn.
import type { Kysely } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'

export const COUNTERPARTY_HOLDING_STATUSES = ['IN_REVIEW', 'ACTIVE'] as const

export async function counterpartyInUse(db: Kysely<ReadDatabase>, organizationId: string, counterpartyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('counterparty_id', '=', counterpartyId)
    .where('status', 'in', COUNTERPARTY_HOLDING_STATUSES)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
