// `tsx bench/accountListExplain.ts > docs/explain-accounts.md`: the plans of the account lists'
// main queries on 100 000 accounts of one organization (and 20 000 of four others), as
// EXPLAIN (ANALYZE, BUFFERS) of the exact SQL read-api/accounts runs, each with why its plan is
// right. Runs on BENCH_DATABASE_URL or a throwaway embedded PostgreSQL (bench/database.ts).
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { ListWindow } from '../http/pagination/offsetShapedList.js'
import { migrateToLatest } from '../projections/database.js'
import type { ReadDatabase } from '../projections/schema.js'
import { type AccountScope, type AccountSelection, listAccounts } from '../read-api/accounts/queries.js'
import { ACCOUNT_SEED_PLAN, insertSeedAccounts, seedCustomerId } from './accountListSeed.js'
import { openBenchPostgres } from './database.js'

export const EXPLAIN_PLAN = { organization: 'org_explain', others: 4, perOther: 5_000 } as const

type Case = { name: string; why: string; selection: AccountSelection; window: ListWindow; scope?: Partial<AccountScope> }

const page = (offset = 0): ListWindow => ({ size: 500, offset })
const customer = seedCustomerId(1234)

/** A cursor halfway down the default list (found on the seeded rows). */
async function middleId(db: Kysely<ReadDatabase>): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('organization_id', '=', EXPLAIN_PLAN.organization)
    .orderBy('id', 'desc')
    .offset(ACCOUNT_SEED_PLAN.accounts / 2)
    .limit(1)
    .executeTakeFirstOrThrow()
  return row.id
}

function cases(cursor: string): Case[] {
  return [
    {
      name: 'Default list (first page of 500), total from account_counts',
      why:
        'The page is the first 500 entries of accounts_list read backwards (index only), then 500 primary-key lookups for their ' +
        'resources; the total is one row of account_counts instead of a 100 000-entry count.',
      selection: {},
      window: page(),
    },
    {
      name: "A customer's accounts (customerId)",
      why:
        "accounts_customer_id (0012) reaches the customer's ~10 accounts directly, already in id order; the count reads the " +
        'same ~10 entries.',
      selection: { customerId: customer },
      window: page(),
    },
    {
      name: 'status + type (IN_REVIEW external wallets)',
      why:
        'accounts_type_status holds exactly the matching entries in id order: the page stops after 500 and the count touches only the ' +
        'matches (index only), however large the organization.',
      selection: { status: 'IN_REVIEW', type: 'EXTERNAL_WALLET' },
      window: page(),
    },
    {
      name: 'status + type, a common pair (ACTIVE USD balance accounts, ~30% of all)',
      why: 'The same index: a contiguous range, index only; the count is proportional to the matches (~29 000), not to the organization.',
      selection: { status: 'ACTIVE', type: 'INFINITE_BANK' },
      window: page(),
    },
    {
      name: 'currencyCodes=EUR (10% of accounts)',
      why:
        'The page walks accounts_list backwards testing the included currency_codes (no heap visits) until 500 match (past the ' +
        "inw_ and ewa_ ranges: ids sort by prefix); the count is one index-only pass over the organization's entries.",
      selection: { currencyCodes: ['EUR'] },
      window: page(),
    },
    {
      name: 'paymentRails=SEPA,SPEI (two rails, 20% of accounts)',
      why: 'As currencyCodes: the overlap is tested on the included payment_rails, index only, for the page and the count.',
      selection: { paymentRails: ['SEPA', 'SPEI'] },
      window: page(),
    },
    {
      name: 'id prefix (id=eba_)',
      why:
        'LIKE with a constant prefix becomes a range condition on accounts_list (C collation): page and count stay inside the ' +
        'eba_ range.',
      selection: { id: 'eba_' },
      window: page(),
    },
    {
      name: 'Deep offset (offset=99 000)',
      why:
        'The ids are picked from accounts_list alone (index only, no heap for the 99 000 skipped entries), then only the 500 kept ' +
        'rows are read: the deferred join.',
      selection: {},
      window: page(99_000),
    },
    {
      name: 'starting_after (a cursor halfway down the list)',
      why:
        'The page is a range scan of accounts_list from the cursor (500 entries); the offset answered (items before the page) counts ' +
        'the entries newer than the cursor, index only (the planner takes the narrower accounts_status, reading the ' +
        "organization's entries once); the total is account_counts.",
      selection: {},
      window: { size: 500, startingAfter: cursor },
    },
    {
      name: 'holdsBalance=true (half of the accounts)',
      why:
        'No index for a boolean that splits the organization in two: accounts_list includes holds_balance, so the page and the count ' +
        "can read the index only (the worst case of every filter without its own index: one pass over the organization's " +
        'entries). Here one organization is 83% of the table, so the planner prices a sequential scan the same and may take it; ' +
        'with more organizations in the table the index-only pass is the cheaper plan.',
      selection: { holdsBalance: true },
      window: page(),
    },
  ]
}

async function main(): Promise<void> {
  const database = await openBenchPostgres()
  const pool = new pg.Pool({ connectionString: await database.createDatabase('explain_accounts') })
  const captured: { sql: string; parameters: readonly unknown[] }[] = []
  const db = new Kysely<ReadDatabase>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query)
    },
  })
  try {
    await migrateToLatest(db)
    const started = Date.now()
    await insertSeedAccounts(db, EXPLAIN_PLAN.organization, 0, ACCOUNT_SEED_PLAN.accounts)
    for (let n = 1; n <= EXPLAIN_PLAN.others; n++) await insertSeedAccounts(db, `org_other_${n}`, 0, EXPLAIN_PLAN.perOther)
    const seeded = (Date.now() - started) / 1000
    const [version] = await database.query<{ version: string }>("SELECT current_setting('server_version') AS version")
    const cursor = await middleId(db)
    const out: string[] = [
      '# Account list query plans',
      '',
      `Generated by \`tsx bench/accountListExplain.ts\` on PostgreSQL ${version?.version ?? '?'}: ${ACCOUNT_SEED_PLAN.accounts} accounts ` +
        `in one organization (${ACCOUNT_SEED_PLAN.customers} customers, the mix of bench/accountListSeed.ts) and ` +
        `${EXPLAIN_PLAN.others * EXPLAIN_PLAN.perOther} in ${EXPLAIN_PLAN.others} others, seeded in ${seeded.toFixed(0)} s, ` +
        'then VACUUM ANALYZE. Timings are of a shared 2-core machine with other work running (they vary by 2 to 3 times between ' +
        'runs); the plans are the point. Each list answers with two statements run together: the page (ids from an index, then their ' +
        'rows) and its count. The indexes are those of migrations 0012 and 0017.',
      '',
    ]
    for (const c of cases(cursor)) {
      captured.length = 0
      const scope: AccountScope = { organizationId: EXPLAIN_PLAN.organization, customerId: undefined, ...c.scope }
      const t0 = performance.now()
      const result = await listAccounts(db, scope, c.selection, c.window)
      const ms = performance.now() - t0
      const statements = [...captured]
      out.push(`## ${c.name}`, '', c.why, '')
      out.push(
        `Answer: ${result?.data.length ?? 0} accounts, total ${result?.total ?? '-'}, offset ${result?.offset ?? '-'}; ` +
          `${ms.toFixed(1)} ms for listAccounts (both statements run together, and the JSON of the rows parsed).`,
        '',
      )
      for (const statement of statements) {
        const explained = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, [
          ...statement.parameters,
        ])
        const params = statement.parameters.map((p) => JSON.stringify(p)).join(', ')
        out.push(
          '```sql',
          statement.sql,
          `-- parameters: ${params}`,
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
        "WHERE relname = 'accounts' ORDER BY 1",
    )
    out.push('## Index sizes', '', '| index | size |', '|---|---|', ...sizes.rows.map((r) => `| ${r.name} | ${r.size} |`), '')
    process.stdout.write(`${out.join('\n')}\n`)
  } finally {
    await db.destroy()
    await database.close()
  }
}

await main()
