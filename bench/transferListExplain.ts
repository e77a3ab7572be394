// `tsx bench/transferListExplain.ts > docs/explain-transfers.md`: the plans of the transfer list's
// queries on 1 000 000 transfers (the mix of transferListSeed.ts: 900 000 in one organization, the
// rest in three others), as EXPLAIN (ANALYZE, BUFFERS) of the exact SQL read-api/transfers runs,
// each with why its plan is right. Runs on BENCH_DATABASE_URL or a throwaway embedded PostgreSQL
// (bench/database.ts). An argument seeds fewer transfers (a quick look; the document is of 1 000 000).
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { OffsetOrCursorQuery } from '../http/pagination/offsetOrCursor.js'
import { type DataProtection, dataProtection } from '../events/protection/dataProtection.js'
import { postgresDataKeyStore } from '../events/protection/dataKeys.js'
import { localKeyManagement } from '../events/protection/localKeyManagement.js'
import { openDataKeyDatabase } from '../events/protection/tables.js'
import { migrateToLatest } from '../projections/database.js'
import type { ReadDatabase } from '../projections/schema.js'
import type { TransferFilters } from '../read-api/transfers/listQuery.js'
import { type TransferScope, listTransferTexts } from '../read-api/transfers/queries.js'
import { openBenchPostgres } from './database.js'
import { BIG_CUSTOMER, TRANSFER_SEED_PLAN, insertSeedTransfers, seedClientReferenceId, seedTransferCustomerId } from './transferListSeed.js'

const ORGANIZATION = 'org_explain'

type Case = { name: string; why: string; filters: TransferFilters; query?: OffsetOrCursorQuery; scope?: Partial<TransferScope> }

/** Data protection on the explain database (no seeded row holds a sealed leaf: the reads never ask for a key). */
const protectionOf = (pool: pg.Pool): DataProtection =>
  dataProtection(
    postgresDataKeyStore(
      openDataKeyDatabase(pool),
      localKeyManagement({ keks: new Map([['kek_explain', Buffer.alloc(32, 5)]]), currentKekId: 'kek_explain' }),
    ),
  )

function cases(middle: string, transfers: number): Case[] {
  const customer = seedTransferCustomerId(1_234)
  return [
    {
      name: 'Default list (first page of 50)',
      why: 'The first 51 entries of transfers_list read backwards (index only; 51: the has_more probe), then 51 primary-key lookups.',
      filters: {},
    },
    {
      name: 'status=PENDING (8% of transfers)',
      why: 'transfers_status holds the PENDING entries of the organization in id order: 51 read backwards, whatever the table size.',
      filters: { status: 'PENDING' },
    },
    {
      name: 'status=REVERSED (1%)',
      why: 'The same index, a rarer status: still a contiguous range, the page stops after 51 entries.',
      filters: { status: 'REVERSED' },
    },
    {
      name: 'sourceCustomerId (a customer with ~80 transfers)',
      why: 'transfers_customer reaches the customer’s entries in id order.',
      filters: { sourceCustomerId: customer },
    },
    {
      name: 'customerId, either side (a customer sending ~80 and receiving ~36)',
      why:
        'A UNION of two backward range scans, transfers_customer (as the source) and transfers_destination_customer (as the ' +
        'destination), each stopping after 51 rows, merged and cut to 51: an OR would read every transfer of the customer and sort them.',
      filters: { customerId: customer },
    },
    {
      name: `customerId, either side, the big customer (${transfers / 10} transfers sent)`,
      why: 'The same UNION: each side reads at most 51 entries however many transfers the customer has.',
      filters: { customerId: BIG_CUSTOMER },
    },
    {
      name: 'status=FAILED and customerId (the big customer)',
      why:
        'The customer indexes include status: the backward scans test it in the index and stop after 51 FAILED entries ' +
        '(about 1 000 entries read each), with no heap visit for the rows they skip.',
      filters: { status: 'FAILED', customerId: BIG_CUSTOMER },
    },
    {
      name: 'clientReferenceId (exact)',
      why: 'transfers_client_reference (partial: only transfers with a reference) finds the one entry.',
      filters: { clientReferenceId: seedClientReferenceId(123_456) },
    },
    {
      name: 'counterpartyId',
      why: 'transfers_counterparty (partial) holds the counterparty’s entries in id order.',
      filters: { counterpartyId: `cp_tbench${String(123).padStart(22, '0')}` },
    },
    {
      name: 'flow=FX',
      why: 'transfers_flow, as status.',
      filters: { flow: 'FX' },
    },
    {
      name: 'agentApprovalStatus=PENDING (no agent transfer yet)',
      why: 'transfers_agent_approval is partial: empty while no transfer has an agent approval, so the answer is immediate.',
      filters: { agentApprovalStatus: 'PENDING' },
    },
    {
      name: 'id prefix (the newest 32 768 ms of ids)',
      why: 'LIKE with a constant prefix is a range on transfers_list (C collation): the page stays inside the prefix’s range.',
      filters: { id: middle.slice(0, 8) },
    },
    {
      name: 'starting_after (a cursor halfway down the list)',
      why: 'A range scan of transfers_list from the cursor, 51 entries; the cursor itself is one primary-key lookup.',
      filters: {},
      query: { page_size: 50, starting_after: middle },
    },
    {
      name: 'ending_before (the page before a cursor halfway down the list)',
      why: 'The same range scan walking forwards (ORDER BY id ASC), the page put back in list order afterwards.',
      filters: {},
      query: { page_size: 50, ending_before: middle },
    },
    {
      name: 'Deep offset (offset=100 000, the bound)',
      why:
        'The ids are picked from transfers_list alone (index only, no heap for the 100 000 skipped entries), then only the 51 kept ' +
        'rows are read.',
      filters: {},
      query: { limit: 50, offset: 100_000 },
    },
    {
      name: 'X-On-Behalf-Of (the big customer) with status=COMPLETED',
      why: 'X-On-Behalf-Of is the either-side UNION too, with the status tested in the customer indexes.',
      filters: { status: 'COMPLETED' },
      scope: { onBehalfOf: BIG_CUSTOMER },
    },
  ]
}

async function main(): Promise<void> {
  const transfers = Number(process.argv[2] ?? TRANSFER_SEED_PLAN.transfers)
  const database = await openBenchPostgres()
  const pool = new pg.Pool({ connectionString: await database.createDatabase('explain_transfers') })
  const captured: { sql: string; parameters: readonly unknown[] }[] = []
  const db = new Kysely<ReadDatabase>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query)
    },
  })
  try {
    await migrateToLatest(db)
    const protection = protectionOf(pool)
    const started = Date.now()
    await insertSeedTransfers(db, ORGANIZATION, 0, transfers)
    const seeded = (Date.now() - started) / 1000
    const [version] = await database.query<{ version: string }>("SELECT current_setting('server_version') AS version")
    const middle = (
      await db
        .selectFrom('transfers')
        .select('id')
        .where('organization_id', '=', ORGANIZATION)
        .orderBy('id', 'desc')
        .offset(Math.floor(transfers * 0.45))
        .limit(1)
        .executeTakeFirstOrThrow()
    ).id
    const out: string[] = [
      '# Transfer list query plans',
      '',
      `Generated by \`tsx bench/transferListExplain.ts\` on PostgreSQL ${version?.version ?? '?'}: ${transfers} transfers, 90% in one ` +
        `organization (${TRANSFER_SEED_PLAN.customers} customers, one of which sends one transfer in ten; the mix of ` +
        `bench/transferListSeed.ts), the rest in three others, seeded in ${seeded.toFixed(0)} s, then VACUUM ANALYZE. Timings are of ` +
        'a shared 2-core machine with other work running; the plans are the point. A list is one statement (the page: ids from an ' +
        'index, then their rows; 51 of them, the has_more probe included), and a primary-key lookup of the cursor when there is one. ' +
        'There is no count (the list answers has_more, not a total). The indexes are those of migration 0018.',
      '',
    ]
    for (const c of cases(middle, transfers)) {
      captured.length = 0
      const scope: TransferScope = { organizationId: ORGANIZATION, onBehalfOf: undefined, ...c.scope }
      const query = c.query ?? { page_size: 50 }
      const t0 = performance.now()
      const rows = await listTransferTexts(db, protection, scope, c.filters, query)
      const ms = performance.now() - t0
      const statements = [...captured]
      out.push(`## ${c.name}`, '', c.why, '')
      out.push(`Answer: ${rows?.length ?? 0} rows (page and probe); ${ms.toFixed(1)} ms for listTransferTexts (the rows' stored JSON).`, '')
      for (const statement of statements) {
        const explained = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, [
          ...statement.parameters,
        ])
        out.push(
          '```sql',
          statement.sql,
          `-- parameters: ${statement.parameters.map((p) => JSON.stringify(p)).join(', ')}`,
          '```',
          '```',
          ...explained.rows.map((r) => r['QUERY PLAN']),
          '```',
          '',
        )
      }
    }
    const sizes = await pool.query<{ name: string; size: string }>(
      'SELECT indexrelname AS name, pg_size_pretty(pg_relation_size(indexrelid)) AS size FROM pg_stat_user_indexes ' +
        "WHERE relname = 'transfers' ORDER BY 1",
    )
    const table = await pool.query<{ size: string }>("SELECT pg_size_pretty(pg_table_size('transfers')) AS size")
    out.push(
      '## Sizes',
      '',
      `Table (heap and TOAST): ${table.rows[0]?.size ?? '?'}.`,
      '',
      '| index | size |',
      '|---|---|',
      ...sizes.rows.map((r) => `| ${r.name} | ${r.size} |`),
      '',
    )
    process.stdout.write(`${out.join('\n')}\n`)
  } finally {
    await db.destroy()
    await database.close()
  }
}

await main()
