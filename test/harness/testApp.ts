// A real app on a fresh Postgres database: the same runtime, projectors and routes as production,
// driven in-process with app.inject().
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import { buildApp } from '../../server/app.js'
import { type Config, loadConfig } from '../../server/config.js'
import { createLogger } from '../../server/logger.js'
import type { Logger } from 'pino'
import { type Runtime, openRuntime } from '../../server/runtime.js'
import { type createTestDatabase, makeTestDatabase } from './testDatabase.js'
import type { WebhookStartOptions } from '../../webhooks/webhookDelivery.js'
import type { Resolver } from '../../webhooks/egress/resolveTarget.js'

type TapLike = Parameters<typeof createTestDatabase>[0]

const UNTHROTTLED = { RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_PER_IP: '100000000' }

export type TestApp = {
  app: FastifyInstance
  runtime: Runtime
  /** A ready organization with one key for the deployment's environment. */
  org: { organizationId: string; apiKey: string; keyId: string }
  newOrganization(name?: string): Promise<{ organizationId: string; apiKey: string; keyId: string }>
  /** app.inject with the organization's key (or `apiKey`) as a Bearer token. */
  request(options: InjectOptions & { apiKey?: string | null }): Promise<LightMyRequestResponse>
}

export async function startTestApp(t: TapLike, env: Partial<Record<keyof Config, string>> = {}, options: { logger?: Logger; webhooks?: WebhookStartOptions; resolver?: Resolver } = {}): Promise<TestApp> {
  // One DNS for the endpoint URL check and the dispatcher: a test can change an answer between them.
  const resolver = options.resolver ?? options.webhooks?.resolver
  const { url: databaseUrl, drop } = await makeTestDatabase()
  // Limits far above what a test sends; test/server/rateLimit.e2e.test.ts sets small ones.
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...UNTHROTTLED, ...env })
  const logger = options.logger ?? createLogger(config.LOG_LEVEL)
  // A test that passes a logger sees the runtime's errors there too (webhook egress refusals, say).
  const runtimeLog = options.logger
    ? { info: (m: string) => logger.info(m), error: (o: unknown, m?: string) => logger.error(o, m) }
    : { info: () => undefined, error: (o: unknown) => console.error(o) }
  const runtime = await openRuntime(config, runtimeLog, { poolSize: 10 })
  await runtime.runner.start()
  // Webhook delivery only when asked (with a fast WEBHOOK_RETRY_SCHEDULE_MS in `env` and short tuning).
  if (options.webhooks) await runtime.webhooks.start({ ...options.webhooks, ...(resolver ? { resolver } : {}) })
  const app = await buildApp(runtime, logger, resolver ? { resolver } : {})
  await app.ready()
  // One teardown, in order: the app's connections close before the database is dropped.
  t.teardown(async () => {
    await app.close()
    await runtime.close()
    await drop()
  })
  const newOrganization = async (name = 'Test organization') => {
    const org = await createOrganization(runtime.store, { name, environment: config.APP_ENV, actor: 'test' })
    await runtime.runner.waitFor(org.position, 10_000)
    return { organizationId: org.organizationId, apiKey: org.apiKey, keyId: org.keyId }
  }
  const org = await newOrganization()
  return {
    app, runtime, org, newOrganization,
    request({ apiKey, headers, ...options }) {
      const key = apiKey === undefined ? org.apiKey : apiKey
      return app.inject({ ...options, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } })
    },
  }
}
