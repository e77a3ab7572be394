// `trigger <type>` as a process against the real server process: every supported type produces a message
// of that type naming what it created; webhook.test goes to the endpoint named; an unknown type, or a
// public one without a recipe, exits 2 with the supported list.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { SUPPORTED_TRIGGERS } from '../../cli/devtools/triggerRecipes.js'
import { PUBLIC_EVENT_TYPES } from '../../domain/publicEvents.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { startServer } from '../proofs/fixtures/serverProcess.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

/** Recipes run at once: each is a handful of sequential calls, so a few in parallel keep the file short. */
const CONCURRENCY = 3

const server = await startServer({ DATABASE_URL: await createTestDatabase(t) })
t.teardown(() => server.kill('SIGKILL'))
const apiKey = server.demoKey
if (!apiKey) throw new Error(`the server printed no demo key: ${server.stdout()}`)
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trigger-'))
t.teardown(() => rm(dataDir, { recursive: true, force: true }))
const env = { DATA_DIR: dataDir, PAYMENTS_API_KEY: apiKey, PAYMENTS_BASE_URL: server.baseUrl }

type Triggered = { eventType: string; created: Record<string, string>; messages: { id: string; type: string }[] }

const PREFIXES: Record<string, string> = {
  customer: 'cus_',
  balanceAccount: 'acc_',
  externalBankAccount: 'eba_',
  transfer: 'tfr_',
  invoice: 'inv_',
}

t.test('every supported type: a message of that type, naming what trigger created', async (t) => {
  const types = SUPPORTED_TRIGGERS.filter((type) => type !== 'webhook.test')
  t.ok(types.length >= 15, 'the common types have recipes')
  const results = new Map<string, Awaited<ReturnType<typeof runCli>>>()
  const queue = [...types]
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let type = queue.shift(); type !== undefined; type = queue.shift()) {
        results.set(type, await runCli(['trigger', type], env, { timeoutMs: 120_000 }))
      }
    }),
  )
  for (const type of types) {
    const run = results.get(type)!
    t.equal(run.code, 0, `${type}: ${run.stderr}`)
    if (run.code !== 0) continue
    const out = stdoutJson<Triggered>(run)
    t.equal(out.eventType, type)
    t.ok(out.messages.length > 0 && out.messages.every((m) => m.type === type && m.id.startsWith('evt_')), `${type}: its message`)
    for (const [kind, id] of Object.entries(out.created)) t.match(id, new RegExp(`^${PREFIXES[kind]}`), `${type}: ${kind} ${id}`)
  }
})

t.test('webhook.test: to the endpoint named, or a clear error without one', async (t) => {
  const none = await runCli(['trigger', 'webhook.test'], env)
  t.equal(none.code, 1)
  t.match(stderrError(none), { error: 'no_endpoint' })
  const created = await fetch(`${server.baseUrl}/v1/webhooks/endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/unused' }),
  })
  const endpoint = (await created.json()) as { id: string }
  const run = await runCli(['trigger', 'webhook.test', '--endpoint', endpoint.id], env)
  t.equal(run.code, 0, run.stderr)
  t.match(stdoutJson<Triggered>(run).messages, [{ type: 'webhook.test', id: /^evt_/ }])
})

t.test('a type without a recipe: exit 2 and the supported list', async (t) => {
  const withoutRecipe = PUBLIC_EVENT_TYPES.find((type) => !SUPPORTED_TRIGGERS.includes(type))!
  for (const type of [withoutRecipe, 'no.such_type']) {
    const run = await runCli(['trigger', type], env)
    t.equal(run.code, 2, type)
    t.equal(run.stdout, '')
    t.same(stderrError(run).supported, SUPPORTED_TRIGGERS, `${type}: the supported types listed`)
  }
})
