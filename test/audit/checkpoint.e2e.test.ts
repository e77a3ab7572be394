// Signed checkpoints of the event log's Merkle tree (issue 29, point 1) against real Postgres: the
// sealer puts every event in the tree once, in commit order; `audit checkpoint` signs its head; every
// organization with an endpoint gets the checkpoint as an `audit.checkpoint_sealed` message; `audit
// verify --checkpoint` recomputes the root. The two tampers the hash chain cannot see are caught here:
// a stream's last event deleted, and a stream's event rewritten with fresh hashes. A forged checkpoint
// (root changed, or another key) fails its signature. Online and offline on an export.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { auditCheckpoint } from '../../cli/commands/auditCheckpoint.js'
import { auditVerify } from '../../cli/commands/auditVerify.js'
import type { ChainReport } from '../../events/integrity/chainVerifier.js'
import type { CheckpointReport } from '../../events/integrity/checkpointCheck.js'
import type { CheckpointRecord } from '../../events/integrity/checkpointRecord.js'
import { checkpointSigner, verifyCheckpoint } from '../../events/integrity/checkpointSignature.js'
import { chainTimeOf, contentHashOf, eventHashOf } from '../../events/integrity/eventHash.js'
import { sealAuditCheckpoint } from '../../server/audit/auditCheckpoints.js'
import { startTestApp } from '../harness/testApp.js'
import { runCli, stderrError } from '../cli/fixtures/runCli.js'
import { runInProcess } from '../cli/fixtures/inProcessCli.js'
import { createInvoice, expectStatus, invoiceAction, invoiceBody } from '../invoices/invoiceWorld.js'
import { approvedCustomer, usdBalance } from '../transfers/transferWorld.js'
import { createEndpoint } from '../webhooks/deliveryHelpers.js'

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
const sql = (text: string, values: unknown[] = []) => h.runtime.pool.query(text, values)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const endpoint = await createEndpoint(h, { url: 'https://hooks.example.com/audit' })
const payee = await approvedCustomer(h, ['USD_BALANCE'])
await usdBalance(h, payee)
const invoice = expectStatus(await createInvoice(h, invoiceBody(payee)), 201, 'create')
expectStatus(await invoiceAction(h, invoice.id, 'send'), 200, 'send')
const invoiceStream = `invoice-${invoice.id}`
const dir = await mkdtemp(path.join(tmpdir(), 'checkpoint-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))

/** Bounded: until the sealer's tree holds every stored event. */
async function sealed(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql(
      'SELECT (SELECT count(*)::int FROM es_events) AS events, (SELECT size::int FROM audit_tree_frontier) AS size',
    )
    if (rows[0].events === rows[0].size) return rows[0].size as number
    await sleep(50)
  }
  throw new Error('the sealer did not catch up in 10 s')
}

const checkpointNow = async (): Promise<CheckpointRecord> => {
  const run = await runInProcess<CheckpointRecord>(auditCheckpoint, [], h.runtime)
  if (run.error) throw run.error
  return run.document!
}
type Verified = ChainReport & { checkpoint?: CheckpointReport & { trust: string } }
const verify = async (argv: string[]) => {
  const run = await runInProcess<Verified>(auditVerify, [...argv, '--json'], h.runtime)
  return { report: run.document!, error: run.error as { error?: string } | undefined }
}
const saved = async (name: string, value: unknown) => {
  const file = path.join(dir, name)
  await writeFile(file, JSON.stringify(value))
  return file
}

const size = await sealed()
const first = await checkpointNow()
const firstFile = await saved('first.json', first)

t.test('the sealer holds every event once, in commit order; the checkpoint signs its head', async (t) => {
  const { rows } = await sql('SELECT leaf_index::int AS leaf, event_id FROM audit_tree_leaves ORDER BY leaf_index')
  const { rows: order } = await sql('SELECT event_id::text FROM es_events ORDER BY transaction_id, global_position')
  t.equal(rows.length, size, 'every stored event is a leaf')
  t.ok(
    rows.every((r, i) => r.leaf === i && r.event_id === order[i]!.event_id),
    'leaves 0, 1, 2, ... in the order of $all',
  )
  t.match(first, { treeSize: size, keyId: h.runtime.auditSealing.signer.keyId })
  t.ok(verifyCheckpoint(first, h.runtime.auditSealing.signer.publicKeyRaw), 'signed by the deployment key')
  t.equal(first.publicKey, h.runtime.auditSealing.signer.publicKeyRaw.toString('base64'))
  t.same(await checkpointNow(), first, 'the tree did not grow: the same checkpoint, none signed')
  const { rows: count } = await sql('SELECT count(*)::int AS n FROM audit_checkpoints')
  t.equal(count[0].n, 1)
})

t.test('every organization with an endpoint holds a copy, as an audit.checkpoint_sealed message', async (t) => {
  const res = await h.request({ method: 'GET', url: '/v1/webhooks/messages?eventTypes=audit.checkpoint_sealed' })
  t.equal(res.statusCode, 200, res.body)
  const messages = res.json().data as { id: string; type?: string; eventType?: string; payload?: { data: unknown } }[]
  t.equal(messages.length, 1, 'one message for this checkpoint')
  const { rows } = await sql('SELECT body, organization_id FROM webhook_messages WHERE event_type = $1', ['audit.checkpoint_sealed'])
  const body = JSON.parse(rows[0].body as string) as { type: string; data: CheckpointRecord }
  t.same(body.data, first, 'the signed checkpoint itself')
  const { rows: deliveries } = await sql('SELECT endpoint_id FROM webhook_deliveries WHERE message_id = $1', [messages[0]!.id])
  t.same(
    deliveries.map((d) => d.endpoint_id),
    [endpoint.id],
  )
  const envelopeFile = await saved('envelope.json', body)
  t.match((await verify(['--checkpoint', envelopeFile])).report.checkpoint, { consistent: true }, 'the message verifies as the checkpoint')
})

t.test('the untouched log verifies against the checkpoint, online and offline', async (t) => {
  const { report, error } = await verify(['--checkpoint', firstFile])
  t.equal(error, undefined)
  t.match(report, { consistent: true, checkpoint: { consistent: true, signatureValid: true, eventsInTree: size, trust: /deployment/ } })
  // More events after the checkpoint change nothing about it.
  expectStatus(await invoiceAction(h, invoice.id, 'send'), 200, 'send again')
  await sealed()
  t.match((await verify(['--checkpoint', firstFile])).report.checkpoint, { consistent: true })

  const env = { DATABASE_URL: h.runtime.databaseUrl, DATA_DIR: h.runtime.config.DATA_DIR }
  const exported = await runCli(['audit', 'export'], env)
  t.equal(exported.code, 0, exported.stderr)
  const exportFile = path.join(dir, 'log.jsonl')
  await writeFile(exportFile, exported.stdout)
  const offline = await runCli(['audit', 'verify', '--export', exportFile, '--checkpoint', firstFile, '--public-key', first.publicKey], {
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  })
  t.equal(offline.code, 0, offline.stderr)
  t.match(offline.stdout, `checkpoint of ${size} events (root ${first.rootHash}`)
  t.match(offline.stdout, 'signature valid, root recomputed')
})

t.test("a stream's last event deleted: the chain still verifies, the checkpoint does not", async (t) => {
  const { rows } = await sql(
    `DELETE FROM es_events WHERE stream_name = $1
       AND stream_revision = (SELECT max(stream_revision) FROM es_events WHERE stream_name = $1)
       AND event_id::text IN (SELECT event_id FROM audit_tree_leaves WHERE leaf_index < $2) RETURNING *`,
    [`customer-${payee}`, first.treeSize],
  )
  t.equal(rows.length, 1, 'a tail event inside the checkpoint deleted')
  const chainOnly = await verify([])
  t.match(chainOnly.report, { consistent: true }, 'the hash chain cannot see a deleted tail')
  const { report, error } = await verify(['--checkpoint', firstFile])
  t.match(report, { consistent: true, checkpoint: { consistent: false, signatureValid: true } })
  t.match(report.checkpoint?.problem, /altered, deleted, reordered or rewritten|events were deleted/)
  t.match(error, { error: 'audit_checkpoint_mismatch' })
  const human = await runCli(['audit', 'verify', '--checkpoint', firstFile], {
    DATABASE_URL: h.runtime.databaseUrl,
    DATA_DIR: h.runtime.config.DATA_DIR,
  })
  t.equal(human.code, 1)
  t.match(human.stdout, /CHECKPOINT PROBLEM: checkpoint of \d+ events/)
  t.match(stderrError(human), { error: 'audit_checkpoint_mismatch' })

  const row = rows[0] as Record<string, unknown>
  const columns = Object.keys(row)
  await sql(
    `INSERT INTO es_events (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    columns.map((c) => (c === 'data' || c === 'metadata' ? JSON.stringify(row[c]) : row[c])),
  )
  t.match((await verify(['--checkpoint', firstFile])).report.checkpoint, { consistent: true }, 'put back, it verifies again')
})

t.test("a stream's event rewritten with fresh hashes: the chain verifies, the checkpoint does not", async (t) => {
  const { rows } = await sql(
    `SELECT event_id::text, stream_name, stream_revision::text, event_type, data::text, metadata::text, recorded_at, event_hash,
       content_hash FROM es_events WHERE stream_name = $1 ORDER BY stream_revision`,
    [invoiceStream],
  )
  const [previous, target] = [rows[0]!, rows[1]!]
  const data = { ...JSON.parse(target.data as string), rewritten: true }
  const contentHash = contentHashOf({
    id: target.event_id,
    stream: invoiceStream,
    type: target.event_type,
    data,
    metadata: JSON.parse(target.metadata as string),
  })
  const eventHash = eventHashOf({
    contentHash,
    previousHash: previous.event_hash,
    recordedAt: chainTimeOf(target.recorded_at),
    revision: 1n,
  })
  // Its successors relinked to the new hash, so every link recomputes.
  let previousHash = eventHash
  const relinked: [string, string][] = []
  for (const later of rows.slice(2))
    relinked.push([
      later.event_id,
      (previousHash = eventHashOf({
        contentHash: later.content_hash,
        previousHash,
        recordedAt: chainTimeOf(later.recorded_at),
        revision: BigInt(later.stream_revision),
      })),
    ])
  await sql('UPDATE es_events SET data = $2::json, content_hash = $3, event_hash = $4 WHERE event_id = $1', [
    target.event_id,
    JSON.stringify(data),
    contentHash,
    eventHash,
  ])
  for (const [id, hash] of relinked) await sql('UPDATE es_events SET event_hash = $2 WHERE event_id = $1', [id, hash])

  t.match((await verify([])).report, { consistent: true }, 'a consistent rewrite passes the chain')
  const { report } = await verify(['--checkpoint', firstFile])
  t.match(report.checkpoint, { consistent: false, signatureValid: true, problem: /the root over the first/ })

  await sql('UPDATE es_events SET data = $2::json, content_hash = $3, event_hash = $4 WHERE event_id = $1', [
    target.event_id,
    target.data,
    target.content_hash,
    target.event_hash,
  ])
  for (const later of rows.slice(2))
    await sql('UPDATE es_events SET event_hash = $2 WHERE event_id = $1', [later.event_id, later.event_hash])
  t.match((await verify(['--checkpoint', firstFile])).report, { consistent: true, checkpoint: { consistent: true } }, 'restored')
})

t.test('a forged checkpoint fails its signature; a checkpoint of another key fails against this one', async (t) => {
  const forged = await saved('forged.json', { ...first, rootHash: 'ab'.repeat(32) })
  t.match((await verify(['--checkpoint', forged])).report.checkpoint, { signatureValid: false, consistent: false, problem: /signature/ })
  const other = checkpointSigner(Buffer.alloc(32, 7))
  const foreign = { ...other.sign(first), publicKey: other.publicKeyRaw.toString('base64') }
  const foreignFile = await saved('foreign.json', foreign)
  t.match(
    (await verify(['--checkpoint', foreignFile])).report.checkpoint,
    { signatureValid: false },
    'online, the deployment key is the trust root',
  )
  t.match(
    (await verify(['--checkpoint', foreignFile, '--public-key', foreign.publicKey])).report.checkpoint,
    { signatureValid: true, consistent: true, trust: /--public-key/ },
    'pinned to its own key, its root is right',
  )
  const usage = await runInProcess(auditVerify, ['--checkpoint', firstFile, '--stream', invoiceStream], h.runtime)
  t.match(usage.error, { message: /whole log/ })
  const garbage = await saved('garbage.json', { treeSize: 'many' })
  t.match((await runInProcess(auditVerify, ['--checkpoint', garbage], h.runtime)).error, { error: 'checkpoint_invalid' })
})

t.test('a second checkpoint after the tree grew; the timer rule waits for the interval', async (t) => {
  const hourly = { ...h.runtime.auditSealing, intervalMs: 3_600_000 }
  t.equal(await sealAuditCheckpoint(h.runtime.db, hourly, { due: true }), undefined, 'the last is younger than an hour')
  const next = await checkpointNow()
  t.ok(next.treeSize > first.treeSize, 'a larger tree')
  t.match((await verify(['--checkpoint', await saved('next.json', next)])).report.checkpoint, { consistent: true })
})
