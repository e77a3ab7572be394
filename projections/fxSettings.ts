// Projects organizations' FX settings: the switches and the sandbox provider's behaviour on one row
// per organization, each customer's own spread on a row of its own (removed when cleared).
import type { FxSettingsEvent } from '../domain/fx-settings/events.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'

export const fxSettingsProjector: Projector = {
  name: 'fx_settings',
  tables: ['fx_settings', 'fx_customer_pricing'],
  handles: new Set(['FxSettingsConfigured', 'FxCustomerPricingSet', 'FxSandboxProviderConfigured']),
  async apply(db, recorded) {
    const event = parsedEvent<FxSettingsEvent>(recorded)
    switch (event.type) {
      case 'FxSettingsConfigured': {
        const d = event.data
        const changed = { settings: toJson(d.settings), updated_at: d.configuredAt }
        await db
          .insertInto('fx_settings')
          .values({ organization_id: d.organizationId, sandbox_provider: null, ...changed })
          .onConflict((oc) => oc.column('organization_id').doUpdateSet(changed))
          .execute()
        return
      }
      case 'FxSandboxProviderConfigured': {
        const d = event.data
        const changed = { sandbox_provider: toJson(d.provider), updated_at: d.configuredAt }
        await db
          .insertInto('fx_settings')
          .values({ organization_id: d.organizationId, settings: null, ...changed })
          .onConflict((oc) => oc.column('organization_id').doUpdateSet(changed))
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
