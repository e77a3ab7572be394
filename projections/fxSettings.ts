// Projects organizations' FX settings: the switches, the sandbox provider's behaviour and its
// capacity in use per corridor on one row per organization, each customer's own spread on a row of
// its own (removed when cleared).
import { type Insertable, type Kysely, type Updateable, sql } from 'kysely'
import type { FxSettingsEvent } from '../domain/fx-settings/events.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { FxSettingsTable, ReadDatabase } from './schema.js'
import type { Projector } from './runtime/projector.js'

/** The row of an organization whose settings were never configured (its defaults apply). */
const blankRow = (organizationId: string, updatedAt: string): Insertable<FxSettingsTable> => ({
  organization_id: organizationId,
  settings: null,
  sandbox_provider: null,
  capacity_use: toJson({}),
  updated_at: updatedAt,
})

/** Sets `changed` (and updated_at) on the organization's row, made blank first when it has none. */
async function upsert(db: Kysely<ReadDatabase>, organizationId: string, at: string, changed: Updateable<FxSettingsTable>): Promise<void> {
  const columns = { ...changed, updated_at: at }
  await db
    .insertInto('fx_settings')
    .values({ ...blankRow(organizationId, at), ...columns })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(columns))
    .execute()
}

export const fxSettingsProjector: Projector = {
  name: 'fx_settings',
  tables: ['fx_settings', 'fx_customer_pricing'],
  handles: new Set(['FxSettingsConfigured', 'FxCustomerPricingSet', 'FxSandboxProviderConfigured', 'FxCapacityReserved']),
  async apply(db, recorded) {
    const event = parsedEvent<FxSettingsEvent>(recorded)
    switch (event.type) {
      case 'FxSettingsConfigured':
        await upsert(db, event.data.organizationId, event.data.configuredAt, { settings: toJson(event.data.settings) })
        return
      case 'FxSandboxProviderConfigured':
        await upsert(db, event.data.organizationId, event.data.configuredAt, { sandbox_provider: toJson(event.data.provider) })
        return
      case 'FxCapacityReserved': {
        const d = event.data
        const use = toJson({ [d.corridor]: { usedCents: d.usedCents, at: d.reservedAt } })
        // The row's other columns stay as they are; only this corridor's use changes.
        await db
          .insertInto('fx_settings')
          .values({ ...blankRow(d.organizationId, d.reservedAt), capacity_use: use })
          .onConflict((oc) =>
            oc.column('organization_id').doUpdateSet({ capacity_use: sql`fx_settings.capacity_use || excluded.capacity_use` }),
          )
          .execute()
        return
      }
      case 'FxCustomerPricingSet': {
        const d = event.data
        if (d.spreadBps === null) {
          await db
            .deleteFrom('fx_customer_pricing')
            .where('organization_id', '=', d.organizationId)
            .where('customer_id', '=', d.customerId)
            .execute()
          return
        }
        const changed = { spread_bps: d.spreadBps, updated_at: d.configuredAt }
        await db
          .insertInto('fx_customer_pricing')
          .values({ organization_id: d.organizationId, customer_id: d.customerId, ...changed })
          .onConflict((oc) => oc.columns(['organization_id', 'customer_id']).doUpdateSet(changed))
          .execute()
        return
      }
    }
  },
}
