// Tamper evidence (issue 29, point 1) against real Postgres: rows of es_events altered, deleted,
// reordered or stripped of their hash behind the service's back are each caught by `audit verify` and
// named (kind, stream, revision, event id), in the store, in one stream, and offline in an export. Each
// tamper is undone before the next, and the untouched store verifies. Most runs are in process; the
// operator's own runs (text, exit code, the export file) are real CLI processes.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { auditVerify } from '../../cli/commands/auditVerify.js'
import type { ChainProblem, ChainReport } from '../../events/integrity/chainVerifier.js'
import { startTestApp } from '../harness/testApp.js'
import { runCli, stderrError } from '../cli/fixtures/runCli.js'
import { runInProcess } from '../cli/fixtures/inProcessCli.js'
import { createInvoice, expectStatus, invoiceAction, invoiceBody } from '../invoices/invoiceWorld.js'
import { approvedCustomer, usdBalance } from '../transfers/transferWorld.js'

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
const env = { DATABASE_URL: h.runtime.databaseUrl }
const payee = await approvedCustomer(h, ['USD_BALANCE'])
await usdBalance(h, payee)
const draft = expectStatus(await createInvoice(h, invoiceBody(payee)), 201, 'create')
expectStatus(await invoiceAction(h, draft.id, 'send'), 200, 'send')
expectStatus(await invoiceAction(h, draft.id, 'send'), 200, 'send again')
const invoiceStream = `invoice-${draft.id}`
const customerStream = `customer-${payee}`
const dir = await mkdtemp(path.join(tmpdir(), 'audit-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))

type Verified = ChainReport & { source: string }
const verify = async (argv: string[] = []) => {
  const run = await runInProcess<Verified>(auditVerify, [...argv, '--json'], h.runtime)
  return { report: run.document!, error: run.error as { error?: string; extra?: { problem?: ChainProblem } } | undefined }
}
const sql = (text: string, values: unknown[] = []) => h.runtime.pool.query(text, values)
type Row = { event_id: string; stream_revision: string; data: unknown }
const rowsOf = async (stream: string) =>
  (
    await sql('SELECT event_id, stream_revision::text, data::text AS data FROM es_events WHERE stream_name = $1 ORDER BY stream_revision', [
      stream,
    ])
  ).rows as Row[]

t.test('the untouched store verifies: every event hashed and linked', async (t) => {
  const { report, error } = await verify()
  t.equal(error, undefined)
  t.match(report, { consistent: true, problemCount: 0, beforeChain: 0 })
  const { rows } = await sql('SELECT count(*)::int AS n, count(event_hash)::int AS hashed FROM es_events')
  t.equal(report.events, rows[0].n, 'every stored event was read')
  t.equal(report.verified, rows[0].hashed, 'and every one recomputed')
  t.equal(rows[0].hashed, rows[0].n, 'every event has a hash')
  t.ok((await rowsOf(invoiceStream)).length >= 4, 'the invoice stream has the events the tampers need')
})

t.test('an altered event is named', async (t) => {
  const [, second] = await rowsOf(invoiceStream)
  await sql(`UPDATE es_events SET data = jsonb_set(data::jsonb, '{at}', '"2020-01-01T00:00:00.000Z"')::json WHERE event_id = $1`, [
    second!.event_id,
  ])
  const { report, error } = await verify()
  t.equal(report.consistent, false)
  t.match(report.problems, [{ kind: 'altered', stream: invoiceStream, revision: '1', eventId: second!.event_id }])
  t.equal(report.problemCount, 1, 'only that event: its successor still links to its stored hash')
  t.match(error, { error: 'audit_chain_broken', extra: { problem: { kind: 'altered', eventId: second!.event_id } } })

  // The same store as an export, verified away from it by a real CLI process, names it too.
  const exported = await runCli(['audit', 'export'], env)
  t.equal(exported.code, 0, exported.stderr)
  const file = path.join(dir, 'altered.jsonl')
  await writeFile(file, exported.stdout)
  const offline = await runCli(['audit', 'verify', '--export', file], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
  t.equal(offline.code, 1, 'exit 1 on a problem; no database needed')
  t.match(offline.stdout, /^AUDIT PROBLEM \(export .*\): 1 problems/)
  t.match(offline.stdout, `altered: ${invoiceStream} revision 1 (event ${second!.event_id})`)
  t.match(stderrError(offline), { error: 'audit_chain_broken' })

  await sql('UPDATE es_events SET data = $2::json WHERE event_id = $1', [second!.event_id, second!.data])
  t.match((await verify()).report, { consistent: true }, 'undone, it verifies again')
})

t.test('a deleted event is named missing', async (t) => {
  const [, second] = await rowsOf(invoiceStream)
  const { rows } = await sql('DELETE FROM es_events WHERE event_id = $1 RETURNING *', [second!.event_id])
  const { report } = await verify()
  t.match(report.problems, [{ kind: 'missing', stream: invoiceStream, revision: '1' }])
  t.equal(report.problems[0]!.eventId, undefined, 'a missing event has no id to show')
  const stream = await verify(['--stream', invoiceStream])
  t.match(stream.report, { source: `stream ${invoiceStream}`, problems: [{ kind: 'missing', revision: '1' }] })

  const row = rows[0] as Record<string, unknown>
  const columns = Object.keys(row)
  await sql(
    `INSERT INTO es_events (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    columns.map((c) => (c === 'data' || c === 'metadata' ? JSON.stringify(row[c]) : row[c])),
  )
  t.match((await verify()).report, { consistent: true }, 'put back, it verifies again')
})

t.test('two events of a stream swapped are named reordered', async (t) => {
  const [, second, third] = await rowsOf(invoiceStream)
  const swap = async () => {
    await sql('UPDATE es_events SET stream_revision = -1 WHERE event_id = $1', [second!.event_id])
    await sql('UPDATE es_events SET stream_revision = 1 WHERE event_id = $1', [third!.event_id])
    await sql('UPDATE es_events SET stream_revision = 2 WHERE event_id = $1', [second!.event_id])
  }
  await swap()
  const { report } = await verify()
  t.match(report.problems, [{ kind: 'reordered', stream: invoiceStream, revision: '1', eventId: third!.event_id }])
  t.equal(report.problemCount, 1)
  const human = await runCli(['audit', 'verify', '--stream', invoiceStream], env)
  t.equal(human.code, 1)
  t.match(human.stdout, `reordered: ${invoiceStream} revision 1 (event ${third!.event_id})`)

  await sql('UPDATE es_events SET stream_revision = -1 WHERE event_id = $1', [third!.event_id])
  await sql('UPDATE es_events SET stream_revision = 1 WHERE event_id = $1', [second!.event_id])
  await sql('UPDATE es_events SET stream_revision = 2 WHERE event_id = $1', [third!.event_id])
  t.match((await verify()).report, { consistent: true }, 'swapped back, it verifies again')
})

t.test('a hash removed, or a row written around the store, is named unchained', async (t) => {
  const rows = await rowsOf(customerStream)
  const last = rows[rows.length - 1]!
  const { rows: kept } = await sql('SELECT event_hash FROM es_events WHERE event_id = $1', [last.event_id])
  await sql('UPDATE es_events SET event_hash = NULL WHERE event_id = $1', [last.event_id])
  const { report } = await verify(['--stream', customerStream])
  t.match(report.problems, [{ kind: 'unchained', stream: customerStream, revision: last.stream_revision, eventId: last.event_id }])
  await sql('UPDATE es_events SET event_hash = $2 WHERE event_id = $1', [last.event_id, kept[0].event_hash])
  t.match((await verify()).report, { consistent: true })
})

t.test('a clean export verifies offline; a malformed one is refused with the line named', async (t) => {
  const exported = await runCli(['audit', 'export', '--stream', invoiceStream], env)
  t.equal(exported.code, 0, exported.stderr)
  const lines = exported.stdout.trim().split('\n')
  t.match(JSON.parse(lines[0]!), { format: 'payments-audit-export', version: 1, stream: invoiceStream })
  const file = path.join(dir, 'clean.jsonl')
  await writeFile(file, exported.stdout)
  const clean = await runInProcess<Verified>(auditVerify, ['--export', file, '--json'], h.runtime)
  t.equal(clean.error, undefined)
  t.match(clean.document, { consistent: true, events: lines.length - 1, verified: lines.length - 1 })

  const broken = path.join(dir, 'broken.jsonl')
  await writeFile(broken, `${(await readFile(file, 'utf8')).trim()}\n{"stream":"x"}\n`)
  const refused = await runInProcess(auditVerify, ['--export', broken], h.runtime)
  t.match(refused.error, { error: 'export_invalid', message: new RegExp(`^line ${lines.length + 1} of the export`) })
  const missing = await runInProcess(auditVerify, ['--export', path.join(dir, 'nothing.jsonl')], h.runtime)
  t.match(missing.error, { error: 'export_unreadable' })
  const usage = await runInProcess(auditVerify, ['--export', file, '--stream', invoiceStream], h.runtime)
  t.match(usage.error, { error: 'usage_error' })
})
