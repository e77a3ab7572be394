// `keys rotate-kek` as an operator runs it, against a real Postgres: every data key re-wrapped by
// the new key-encryption key while the event rows stay byte for byte the same; with the key in
// the environment (old one in DATA_ENCRYPTION_KEY_PREVIOUS) and with the key file (a new KEK added,
// mode 0600, a running server still reading). Production refuses to start without a key.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import pg from 'pg'
import { KEY_FILE_NAME, kekIdOf } from '../../events/protection/localKeySource.js'
import { mask } from '../../events/protection/redaction.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const PHONE = '+14155550187'
type Rotation = { origin: string; previousKekId: string; currentKekId: string; rewrapped: number }

async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

const eventRows = (url: string) => rows(url, 'SELECT event_id, data::text, metadata::text FROM es_events ORDER BY event_id')

t.test('key in the environment: the old one listed as previous, every data key re-wrapped, events untouched', async (t) => {
  const oldKey = randomBytes(32).toString('base64')
  const newKey = randomBytes(32).toString('base64')
  const h = await startTestApp(t, { DATA_ENCRYPTION_KEY: oldKey })
  const customer = await createIndividual(h, { phone: PHONE })
  const url = h.runtime.databaseUrl
  const before = await eventRows(url)
  t.same(
    (await rows(url, 'SELECT DISTINCT kek_id FROM data_keys')).map((r) => r.kek_id),
    [kekIdOf(Buffer.from(oldKey, 'base64'))],
  )

  const refused = await runCli(['keys', 'rotate-kek'], { DATABASE_URL: url, DATA_ENCRYPTION_KEY: newKey })
  t.not(refused.code, 0, 'without the old key nothing can be unwrapped')
  t.match(stderrError(refused), { message: /DATA_ENCRYPTION_KEY_PREVIOUS/ })

  const run = await runCli(['keys', 'rotate-kek'], { DATABASE_URL: url, DATA_ENCRYPTION_KEY: newKey, DATA_ENCRYPTION_KEY_PREVIOUS: oldKey })
  t.equal(run.code, 0, run.stderr)
  const result = stdoutJson<Rotation>(run)
  t.match(result, { origin: 'environment', currentKekId: kekIdOf(Buffer.from(newKey, 'base64')) })
  t.ok(result.rewrapped >= 1, 'the customer key at least')
  t.same(
    (await rows(url, 'SELECT DISTINCT kek_id FROM data_keys WHERE kek_id IS NOT NULL')).map((r) => r.kek_id),
    [result.currentKekId],
    'no key is left under the old KEK',
  )
  t.same(await eventRows(url), before, 'the event rows are byte for byte the same')

  // The new key alone now opens everything.
  const audit = await runCli(['events', 'stream', `customer-${customer.id}`], { DATABASE_URL: url, DATA_ENCRYPTION_KEY: newKey })
  t.equal(audit.code, 0, audit.stderr)
  t.match(audit.stdout, mask(PHONE), 'the phone opens with the new KEK only (masked for the auditor)')
  t.notMatch(audit.stdout, PHONE, 'never printed in full')
  const again = await runCli(['keys', 'rotate-kek'], {
    DATABASE_URL: url,
    DATA_ENCRYPTION_KEY: newKey,
    DATA_ENCRYPTION_KEY_PREVIOUS: oldKey,
  })
  t.equal(stdoutJson<Rotation>(again).rewrapped, 0, 'a second rotation to the same key re-wraps nothing')
})

t.test('key file: a new KEK added (mode 0600), data keys re-wrapped, the running server keeps reading', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kek-file-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const h = await startTestApp(t, { DATA_DIR: dataDir })
  const file = path.join(dataDir, KEY_FILE_NAME)
  t.equal(statSync(file).mode & 0o777, 0o600, 'created readable by its owner only')
  const customer = await createIndividual(h, { phone: PHONE })
  const firstKek = (JSON.parse(readFileSync(file, 'utf8')) as { current: string }).current

  const run = await runCli(['keys', 'rotate-kek'], { DATABASE_URL: h.runtime.databaseUrl, DATA_DIR: dataDir })
  t.equal(run.code, 0, run.stderr)
  const result = stdoutJson<Rotation>(run)
  t.match(result, { origin: 'file', previousKekId: firstKek })
  t.not(result.currentKekId, firstKek)
  t.ok(result.rewrapped >= 1)
  const content = JSON.parse(readFileSync(file, 'utf8')) as { current: string; keys: { id: string }[] }
  t.equal(content.current, result.currentKekId)
  t.same(
    content.keys.map((k) => k.id),
    [firstKek, result.currentKekId],
    'the old KEK stays for processes that read the file before',
  )
  t.equal(statSync(file).mode & 0o777, 0o600, 'still 0600 after the rewrite')
  for (const k of (JSON.parse(readFileSync(file, 'utf8')) as { keys: { key: string }[] }).keys)
    t.notOk((run.stdout + run.stderr).includes(k.key), 'prints key ids, never a key')
  // A customer created after the rotation, by the server that loaded the file before it.
  const later = await createIndividual(h, { phone: '+14155550188' })
  for (const id of [customer.id, later.id]) {
    const audit = await runCli(['events', 'stream', `customer-${id}`], { DATABASE_URL: h.runtime.databaseUrl, DATA_DIR: dataDir })
    t.equal(audit.code, 0, audit.stderr)
  }
})

t.test('production refuses to start without DATA_ENCRYPTION_KEY', async (t) => {
  const h = await startTestApp(t)
  const run = await runCli(['keys', 'rotate-kek'], { DATABASE_URL: h.runtime.databaseUrl, APP_ENV: 'production' })
  t.not(run.code, 0)
  t.match(run.stderr, /production needs DATA_ENCRYPTION_KEY/)
})
