// Secrets in logs (issue 9): every log line of the service, in process (the harness's capture at
// debug level) and from a spawned server (its stdout and stderr, LOG_LEVEL=debug), is searched for
// the secrets the workload handled: API keys, whsec_ signing secrets, tax ids, document numbers
// and document contents. Every other test file gets the same search at teardown (testApp.ts);
// here a workload over every operation makes sure the search is not vacuous.
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import t from 'tap'
import { createOrganization, setAgentsFeature } from '../../commands/organizations/organizationCommands.js'
import { loadConfig } from '../../server/config.js'
import { openRuntime } from '../../server/runtime.js'
import { REPO_ROOT, childEnv, freePort } from '../cli/fixtures/runCli.js'
import { createLogCapture } from '../harness/logCapture.js'
import { createSecretHarvest, describeLeaks } from '../harness/secretHarvest.js'
import { makeTestDatabase } from '../harness/testDatabase.js'
import { nodeArgsFor } from '../harness/prebuilt.js'
import type { ApiReply, Send } from './fixtures/client.js'
import { jsonOf } from './fixtures/client.js'
import { enableAgentsFor, openProofApp } from './fixtures/openApp.js'
import { operationsOf } from './fixtures/operations.js'
import { missingFixtures } from './fixtures/registry.js'
import { runSecretWorkload } from './fixtures/secretWorkload.js'
import { createWorld } from './fixtures/world.js'

const SERVER_START_TIMEOUT_MS = 45_000
const SERVER_STOP_TIMEOUT_MS = 20_000
const EXPECTED_KINDS = ['API key', 'secret', 'taxIdentificationNumber', 'idNumber', 'content', 'content (decoded)']

t.test('in process: no secret in any log line of a workload over every operation', async (t) => {
  const proof = await openProofApp(t)
  t.same(missingFixtures(proof.operations), [], 'every operation has a fixture')
  const other = await proof.h.newOrganization('Second organization')
  await enableAgentsFor(proof.h, other.organizationId)
  const world = createWorld(proof.send, proof.h.org.apiKey, proof.operatorKey)
  const run = await runSecretWorkload(proof.send, world, proof.operations, proof.h.secrets)
  await runSecretWorkload(proof.send, createWorld(proof.send, other.apiKey), proof.operations, proof.h.secrets)
  const lines = proof.h.logs.lines()
  t.ok(lines.length >= 2 * run.requests, `${lines.length} log lines captured for ${run.requests} requests (${run.refused} refused)`)
  t.ok(
    lines.filter((l) => l.includes('"msg":"incoming request"')).length >= run.requests,
    'a line for every request (request logging is on at debug)',
  )
  t.ok(proof.h.secrets.size() >= 15, `${proof.h.secrets.size()} secrets harvested`)
  t.same(
    EXPECTED_KINDS.filter((k) => !proof.h.secrets.kinds().has(k)),
    [],
    'every kind of secret was in play',
  )
  const leaks = proof.h.secrets.leaksIn(lines)
  t.equal(leaks.length, 0, describeLeaks(leaks) || 'no log line holds a secret')
  // The search itself finds a secret when one is logged.
  const probe = createLogCapture('debug')
  probe.logger.debug({ note: `tax id ${'123-45-6789'}` }, 'careless line')
  t.equal(proof.h.secrets.leaksIn(probe.lines()).length, 1, 'a logged tax id would be found')
})

type Server = ChildProcessByStdio<null, Readable, Readable>

/** fetch as the proofs' client, harvesting secrets like the in-process harness does. */
function sendOverHttp(baseUrl: string, defaultKey: string, harvest: ReturnType<typeof createSecretHarvest>): Send {
  return async ({ method, url, headers, payload, apiKey }) => {
    const key = apiKey === undefined ? defaultKey : apiKey
    const body =
      payload === undefined
        ? undefined
        : typeof payload === 'string'
          ? payload
          : Buffer.isBuffer(payload)
            ? new Uint8Array(payload)
            : JSON.stringify(payload)
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined && typeof payload === 'object' && !Buffer.isBuffer(payload) ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body } : {}),
    })
    const reply: ApiReply = { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
    harvest.fromExchange(payload, reply.statusCode, reply.body)
    return reply
  }
}

t.test('spawned server: no secret in its stdout or stderr at debug level', async (t) => {
  const { url: databaseUrl, drop } = await makeTestDatabase()
  // An organization exists before the server starts, so it creates no demo organization and prints no key.
  const setup = await openRuntime(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }), {
    info: () => undefined,
    error: () => undefined,
  })
  const org = await createOrganization(setup.commands, { name: 'Spawned', environment: 'sandbox', actor: 'test' })
  await setAgentsFeature(setup.commands, { organizationId: org.organizationId, enabled: true, setBy: 'proofs', actor: 'test' })
  await setup.close()

  const capture = createLogCapture('silent')
  const harvest = createSecretHarvest()
  harvest.add('API key', org.apiKey)
  const port = await freePort()
  const server: Server = spawn(process.execPath, nodeArgsFor('server/main.ts'), {
    cwd: REPO_ROOT,
    env: childEnv({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'debug',
      RATE_LIMIT_PER_KEY: '100000000',
      RATE_LIMIT_PER_IP: '100000000',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  server.stdout.setEncoding('utf8').on('data', (chunk: string) => capture.append(chunk))
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => capture.append(chunk))
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
  t.teardown(async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
    await drop()
  })

  const baseUrl = `http://127.0.0.1:${port}`
  const send = sendOverHttp(baseUrl, org.apiKey, harvest)
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS
  for (;;) {
    const ready = await send({ method: 'GET', url: '/v1/webhooks/endpoints' }).catch(() => undefined)
    if (ready?.statusCode === 200) break
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server not ready: ${capture.lines().slice(-5).join('\n')}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  const operations = operationsOf(jsonOf<unknown>(await send({ method: 'GET', url: '/api-json', apiKey: null }), '/api-json'))
  t.same(missingFixtures(operations), [], 'every operation has a fixture')
  const run = await runSecretWorkload(send, createWorld(send, org.apiKey), operations, harvest)

  server.kill('SIGTERM')
  const timer = setTimeout(() => server.kill('SIGKILL'), SERVER_STOP_TIMEOUT_MS)
  const code = await exited
  clearTimeout(timer)
  t.equal(code, 0, 'the server stopped cleanly')

  const lines = capture.lines()
  t.ok(lines.length >= 2 * run.requests, `${lines.length} lines from the server for ${run.requests} requests`)
  t.ok(harvest.size() >= 10, `${harvest.size()} secrets harvested`)
  const leaks = harvest.leaksIn(lines)
  t.equal(leaks.length, 0, describeLeaks(leaks) || 'no line of the server holds a secret')
})
