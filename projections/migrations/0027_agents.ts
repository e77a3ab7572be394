// Agents (issue 27): the organizations' agents switch, one row per agent (its state as the aggregate
// evolves it, with the columns the list filters by), the agents' keys (hashes only) for
// authentication, and what each agent has spent in its current windows.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('agents_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  await db.schema
    .createTable('agents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('source_account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('mcp_role', 'text', (c) => c.notNull())
    .addColumn('state', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('agents_organization_id').on('agents').columns(['organization_id', 'id']).execute()
  await db.schema
    .createTable('agent_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('agent_keys_agent_id').on('agent_keys').columns(['agent_id', 'id']).execute()
  await db.schema
    .createTable('agent_spend')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('used_day', 'numeric', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('used_month', 'numeric', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agent_spend').execute()
  await db.schema.dropTable('agent_keys').execute()
  await db.schema.dropTable('agents').execute()
  await db.schema.alterTable('organizations').dropColumn('agents_enabled').execute()
}
