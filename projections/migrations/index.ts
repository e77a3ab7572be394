// Numbered migrations of the Postgres read side. Never edit one that has landed: add the next.
import type { Migration, MigrationProvider } from 'kysely'
import * as m0001 from './0001_foundation.js'
import * as m0002 from './0002_idempotency_keys.js'
import * as m0003 from './0003_customers.js'
import * as m0004 from './0004_webhook_delivery.js'
import * as m0005 from './0005_consumer_status.js'
import * as m0006 from './0006_webhook_endpoint_counts.js'
import * as m0007 from './0007_consumer_checkpoints.js'
import * as m0008 from './0008_scheduled_commands.js'
import * as m0009 from './0009_data_keys.js'
import * as m0010 from './0010_sealed_idempotent_responses.js'
import * as m0011 from './0011_idempotency_response_subject.js'
import * as m0012 from './0012_accounts.js'
import * as m0013 from './0013_counterparties.js'
import * as m0014 from './0014_aggregate_snapshots.js'
import * as m0015 from './0015_liquidity_facility.js'
import * as m0016 from './0016_balances.js'
import * as m0017 from './0017_account_list_indexes.js'
import * as m0018 from './0018_transfers.js'
import * as m0019 from './0019_transfer_resources.js'
import * as m0020 from './0020_fixed_routes.js'
import * as m0021 from './0021_customer_resources.js'
import * as m0022 from './0022_consumer_parked.js'
import * as m0023 from './0023_money_in_flight.js'
import * as m0024 from './0024_projection_mode.js'
import * as m0025 from './0025_fx_settings.js'
import * as m0026 from './0026_fx_trades.js'
import * as m0027 from './0027_agents.js'
import * as m0028 from './0028_transfer_drafts.js'
import * as m0029 from './0029_invoices.js'
import * as m0030 from './0030_ledger_verifications.js'
import * as m0031 from './0031_audit_tree.js'
import * as m0032 from './0032_api_key_roles.js'
import * as m0033 from './0033_projection_versions.js'
import * as m0034 from './0034_console_sessions.js'

const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_idempotency_keys': m0002,
  '0003_customers': m0003,
  '0004_webhook_delivery': m0004,
  '0005_consumer_status': m0005,
  '0006_webhook_endpoint_counts': m0006,
  '0007_consumer_checkpoints': m0007,
  '0008_scheduled_commands': m0008,
  '0009_data_keys': m0009,
  '0010_sealed_idempotent_responses': m0010,
  '0011_idempotency_response_subject': m0011,
  '0012_accounts': m0012,
  '0013_counterparties': m0013,
  '0014_aggregate_snapshots': m0014,
  '0015_liquidity_facility': m0015,
  '0016_balances': m0016,
  '0017_account_list_indexes': m0017,
  '0018_transfers': m0018,
  '0019_transfer_resources': m0019,
  '0020_fixed_routes': m0020,
  '0021_customer_resources': m0021,
  '0022_consumer_parked': m0022,
  '0023_money_in_flight': m0023,
  '0024_projection_mode': m0024,
  '0025_fx_settings': m0025,
  '0026_fx_trades': m0026,
  '0027_agents': m0027,
  '0028_transfer_drafts': m0028,
  '0029_invoices': m0029,
  '0030_ledger_verifications': m0030,
  '0031_audit_tree': m0031,
  '0032_api_key_roles': m0032,
  '0033_projection_versions': m0033,
  '0034_console_sessions': m0034,
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
