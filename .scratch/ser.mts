import pg from 'pg'
import { offsetShapedListSchema } from '../http/pagination/offsetShapedList.js'
import { expandedAccountResource } from '../read-api/accounts/expand.js'
const pool = new pg.Pool({ connectionString: process.argv[2] })
const schema = offsetShapedListSchema(expandedAccountResource)
for (let k = 0; k < 5; k++) {
  let t = performance.now()
  const r = await pool.query("select resource from accounts where organization_id='org_main' order by id desc limit 500")
  const q = performance.now() - t
  const body = { data: r.rows.map((x) => x.resource), total: 1, limit: 500, offset: 0 }
  t = performance.now()
  const parsed = schema.parse(body)
  const z = performance.now() - t
  t = performance.now()
  const s = JSON.stringify(parsed)
  const j = performance.now() - t
  console.log(`query+pg parse ${q.toFixed(1)} ms, zod ${z.toFixed(1)} ms, stringify ${j.toFixed(1)} ms, ${s.length} bytes`)
}
await pool.end()
