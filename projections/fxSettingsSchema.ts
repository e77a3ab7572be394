// The FX settings read model (migration 0025), owned by projections/fxSettings.ts.
import type { FxSettings, SandboxProvider } from '../domain/fx-settings/settings.js'
import type { Json, Timestamp } from './columnTypes.js'

export interface FxSettingsTable {
  organization_id: string
  /** null: never configured, the environment's defaults apply. */
  settings: Json<FxSettings> | null
  /** null: the sandbox provider's defaults apply. */
  sandbox_provider: Json<SandboxProvider> | null
  updated_at: Timestamp
}

export interface FxCustomerPricingTable {
  organization_id: string
  customer_id: string
  spread_bps: number
  updated_at: Timestamp
}

export interface FxSettingsDatabase {
  fx_settings: FxSettingsTable
  fx_customer_pricing: FxCustomerPricingTable
}
