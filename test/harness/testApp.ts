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

type TapLike = Parameters<typeof createTestDatabase>[0]

export type TestApp = {
  app: FastifyInstance
  runtime: Runtime
  /** A ready organization with one key for the deployment's environment. */
  org: { organizationId: string; apiKey: string; keyId: string }
  newOrganization(name?: string): Promise<{ organizationId: string; apiKey: string; keyId: string }>
  /** app.inject with the organization's key (or `apiKey`) as a Bearer token. */
  request(options: InjectOptions & { apiKey?: string | null }): Promise<LightMyRequestResponse>
}

export async function startTestApp(t: TapLike, env: Partial<Record<keyof Config, string>> = {}, options: { logger?: Logger; webhooks?: WebhookStartOptions } = {}): Promise<TestApp> {
  const { url: databaseUrl, drop } = await makeTestDatabase()
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env })
  const logger = options.logger ?? createLogger(config.LOG_LEVEL)
  const runtime = await openRuntime(config, { info: () => undefined, error: (o) => console.error(o) }, { poolSize: 10 })
  await runtime.runner.start()
  // Webhook delivery only when asked (with a fast WEBHOOK_RETRY_SCHEDULE_MS in `env` and short tuning).
  if (options.webhooks) await runtime.webhooks.start(options.webhooks)
  const app = await buildApp(runtime, logger)
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
