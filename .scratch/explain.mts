import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { listAccounts } from '../read-api/accounts/queries.js'
const pool = new pg.Pool({ connectionString: process.argv[2] })
const captured: { sql: string; parameters: readonly unknown[] }[] = []
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: (e) => { if (e.level === 'query') captured.push(e.query) } })
const scope = { organizationId: 'org_main', customerId: undefined }
const cases: [string, any, any][] = [
  ['default', {}, { size: 500, offset: 0 }],
  ['customer', { customerId: 'cus_01m8' + '1234'.padStart(22, '0') }, { size: 500, offset: 0 }],
  ['status+type', { status: 'IN_REVIEW', type: 'EXTERNAL_WALLET' }, { size: 500, offset: 0 }],
  ['closed', { status: 'CLOSED' }, { size: 500, offset: 0 }],
  ['currency', { currencyCodes: ['EUR'] }, { size: 500, offset: 0 }],
  ['currency2', { currencyCodes: ['MXN', 'EUR'] }, { size: 500, offset: 0 }],
  ['idprefix', { id: 'eba_' }, { size: 500, offset: 0 }],
  ['deep', {}, { size: 500, offset: 99000 }],
  ['cursor', {}, { size: 500, startingAfter: 'eba_01m8' + '50002'.padStart(22, '0') }],
]
const only = process.argv[3]
for (const [name, sel, win] of cases) {
  if (only && !only.split(',').includes(name)) continue
  captured.length = 0
  const t0 = performance.now()
  const page = await listAccounts(db, scope, sel, win)
  const ms = performance.now() - t0
  console.log(`\n=== ${name}: ${page?.data.length} rows, total ${page?.total}, offset ${page?.offset}, ${ms.toFixed(1)} ms`)
  for (const q of [...captured]) {
    const r = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.parameters as unknown[])
    console.log(q.sql)
    console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'))
  }
}
await pool.end()
