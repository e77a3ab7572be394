// The FX read models (migrations 0025-0026): settings and pricing owned by projections/fxSettings.ts,
// quotes by projections/fxQuotes.ts, trades by projections/fxTrades.ts.
import type { CorridorUse } from '../domain/fx-settings/capacity.js'
import type { FxSettings, SandboxProvider } from '../domain/fx-settings/settings.js'
import type { FxQuote } from '../domain/fx-quote/decider.js'
import type { QuoteOutcome } from '../domain/fx-quote/resource.js'
import type { OpenFxTrade } from '../domain/fx-trade/decider.js'
import type { Json, Timestamp } from './columnTypes.js'

export interface FxSettingsTable {
  organization_id: string
  /** null: never configured, the environment's defaults apply. */
  settings: Json<FxSettings> | null
  /** null: the sandbox provider's defaults apply. */
  sandbox_provider: Json<SandboxProvider> | null
  /** The sandbox provider's capacity in use per corridor, at each one's last reservation. */
  capacity_use: Json<Record<string, CorridorUse>>
  updated_at: Timestamp
}

export interface FxQuotesTable {
  id: string
  organization_id: string
  customer_id: string
  /** The quote as created (FxQuoteCreated's data). */
  quote: Json<FxQuote>
  outcome: Json<QuoteOutcome>
  created_at: Timestamp
}

export interface FxCustomerPricingTable {
  organization_id: string
  customer_id: string
  spread_bps: number
  updated_at: Timestamp
}

/** One row per FX trade: its state (the aggregate's own), the resource made from it at read time. */
export interface FxTradesTable {
  id: string
  organization_id: string
  customer_id: string
  status: string
  state: Json<OpenFxTrade>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface FxSettingsDatabase {
  fx_settings: FxSettingsTable
  fx_customer_pricing: FxCustomerPricingTable
  fx_quotes: FxQuotesTable
  fx_trades: FxTradesTable
}
