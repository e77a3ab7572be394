// Projects counterparties: a row per active counterparty (a deletion removes it), its address's
// street lines sealed under the customer's key (sealedColumns.ts). Claims of match keys
// (CounterpartyMatchClaimed) stay on their streams: no read needs them.
import type { Insertable } from 'kysely'
import type { CounterpartyEvent } from '../domain/counterparty/events.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'
import type { CounterpartiesTable } from './schema.js'
import { sealedCounterpartyAddress } from './sealedColumns.js'

export const counterpartiesProjector: Projector = {
  name: 'counterparties',
  tables: ['counterparties'],
  handles: new Set(['CounterpartyCreated', 'CounterpartyDeleted']),
  async apply(db, recorded, ctx) {
    const event = parsedEvent<CounterpartyEvent>(recorded)
    if (event.type === 'CounterpartyDeleted') {
      await db.deleteFrom('counterparties').where('id', '=', event.data.counterpartyId).execute()
      return
    }
    const d = event.data
    const row: Insertable<CounterpartiesTable> = {
      id: d.counterpartyId,
      organization_id: d.organizationId,
      customer_id: d.customerId,
      name: d.name,
      beneficiary_type: d.beneficiaryType,
      is_third_party: d.isThirdParty,
      address: toJson(await sealedCounterpartyAddress.seal(ctx.protection, d.counterpartyId, d.address, d.customerId)),
      metadata: toJson(d.metadata),
      created_at: d.createdAt,
      updated_at: d.createdAt,
    }
    await db.insertInto('counterparties').values(row).execute()
  },
}
