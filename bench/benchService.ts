// A benchmark child's service: the real runtime, projectors and routes on DATABASE_URL, with one
// organization and sandbox key created first (or, for a second process on the same database, the
// key in BENCH_API_KEY). Prints {"port","apiKey"} (and the new "organizationId") once it listens,
// and stops when told or when its parent goes away.
import { inspect } from 'node:util'
import { createOrganization, setAgentsFeature } from '../commands/organizations/organizationCommands.js'
import { buildApp } from '../server/app.js'
import { loadConfig } from '../server/config.js'
import { createLogger } from '../server/logger.js'
import { type Runtime, openRuntime } from '../server/runtime.js'
import { CONSUMERS_STOPPED_LINE, stopWhenToldOrOrphaned } from './child.js'

export async function serveBenchService(options: {
  /** Names the child in its error lines. */
  name: string
  organizationName: string
  /** Runs after the projectors start, before the server listens (webhook delivery, say). */
  beforeListen?: (runtime: Runtime) => Promise<void>
}): Promise<void> {
  // 50 connections on one key at several thousand requests a second: the limiter runs, far above its default limit.
  const config = loadConfig({
    RATE_LIMIT_PER_KEY: '100000000',
    RATE_LIMIT_PER_IP: '100000000',
    WEBHOOK_ENDPOINTS_PER_ORGANIZATION: '1000000000',
    ...process.env,
    LOG_LEVEL: 'silent',
  })
  if (!config.DATABASE_URL) throw new Error(`${options.name} needs DATABASE_URL`)
  // SIGUSR2 stops the consumers (projectors, workflows, webhook subscriber) and the read-your-writes
  // wait: the bench's ceiling rows measure the command side alone, what no consumer work can exceed.
  let consumersStopped = false
  const runtime = await openRuntime(
    config,
    {
      info: () => undefined,
      error: (obj, msg) => process.stderr.write(`${options.name}: ${msg ?? ''} ${inspect(obj)}\n`),
    },
    // BENCH_HASH_CHAIN=off: the chain's baseline (bench/integrityBench.ts); a deployment always chains.
    { skipReadYourWrites: () => consumersStopped, hashChain: process.env.BENCH_HASH_CHAIN !== 'off' },
  )
  const sharedKey = process.env.BENCH_API_KEY
  const org = sharedKey
    ? { apiKey: sharedKey }
    : await createOrganization(runtime.commands, { name: options.organizationName, environment: config.APP_ENV, actor: 'bench' })
  // Agents are an operator's switch per organization: on for the bench's own, like its key.
  if ('organizationId' in org)
    await setAgentsFeature(runtime.commands, { organizationId: org.organizationId, enabled: true, setBy: 'bench', actor: 'bench' })
  await runtime.runner.catchUp()
  await runtime.runner.start()
  await options.beforeListen?.(runtime)
  process.on('SIGUSR2', () => {
    consumersStopped = true
    Promise.all([runtime.runner.stop(), runtime.webhooks.stop()]).then(
      () => process.stdout.write(`${CONSUMERS_STOPPED_LINE}\n`),
      (error: unknown) => process.stderr.write(`${options.name}: stopping the consumers failed ${inspect(error)}\n`),
    )
  })
  const app = await buildApp(runtime, createLogger(config.LOG_LEVEL))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (typeof address !== 'object' || !address) throw new Error('server has no address')
  stopWhenToldOrOrphaned(async () => {
    await app.close()
    await runtime.close()
  })
  process.stdout.write(`${JSON.stringify({ port: address.port, ...org })}\n`)
}
