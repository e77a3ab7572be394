// Transfers (issue 13): one row per transfer, the filter columns of GET /v1/transfers copied out of
// its state, and the state itself (the resource is made from it at read time). Every list is newest
// first (ORDER BY id DESC: ids sort by creation) within one organization, so each filter has an
// index (organization_id, <filter>, id): the page is a backwards range scan that stops after the
// page, whatever the organization's size (plans at 1 000 000 transfers: docs/explain-transfers.md).
// - (organization_id, id): the default list, id prefixes (LIKE 'tfr_x%' is a range in the C
//   collation), cursors, deep offsets; it includes status and flow, so those filters combined with
//   a prefix or a deep offset are tested in the index;
// - status, flow: one index each (a few values, each a long run in id order);
// - source customer and destination customer: the either-side filter is a UNION of one range scan
//   on each (bench: a customer with 100 000 transfers answers in a few ms); both include status and
//   flow, so a customer's list by status or flow is filtered in the index;
// - counterparty, agent, agent approval, clientReferenceId: partial (most transfers have none).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('destination_customer_id', 'text')
    .addColumn('counterparty_id', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('agent_approval_status', 'text')
    .addColumn('client_reference_id', 'text')
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_account_id', 'text')
    .addColumn('destination_account_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state', 'jsonb', (c) => c.notNull())
    .execute()
  // Kysely's index builder has no INCLUDE.
  await sql`CREATE INDEX transfers_list ON transfers (organization_id, id) INCLUDE (status, flow)`.execute(db)
  await db.schema.createIndex('transfers_status').on('transfers').columns(['organization_id', 'status', 'id']).execute()
  await db.schema.createIndex('transfers_flow').on('transfers').columns(['organization_id', 'flow', 'id']).execute()
  await sql`CREATE INDEX transfers_customer ON transfers (organization_id, customer_id, id) INCLUDE (status, flow)`.execute(db)
  await sql`CREATE INDEX transfers_destination_customer ON transfers (organization_id, destination_customer_id, id)
    INCLUDE (status, flow) WHERE destination_customer_id IS NOT NULL`.execute(db)
  const partial = async (name: string, column: string) =>
    db.schema.createIndex(name).on('transfers').columns(['organization_id', column, 'id']).where(sql.ref(column), 'is not', null).execute()
  await partial('transfers_counterparty', 'counterparty_id')
  await partial('transfers_agent', 'agent_id')
  await partial('transfers_agent_approval', 'agent_approval_status')
  await partial('transfers_client_reference', 'client_reference_id')
}
