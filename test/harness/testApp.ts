// A real app on a fresh Postgres database: the same runtime, projectors and routes as production,
// driven in-process with app.inject(). Its log lines (debug level by default) are captured, the
// secrets its requests carry are harvested, and the file fails at teardown when a log line holds one.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import { buildApp } from '../../server/app.js'
import { type Config, loadConfig } from '../../server/config.js'
import type { Logger } from 'pino'
import { type LogCapture, createLogCapture } from './logCapture.js'
import { type SecretHarvest, createSecretHarvest, describeLeaks } from './secretHarvest.js'
import { type Runtime, openRuntime } from '../../server/runtime.js'
import { type createTestDatabase, makeTestDatabase } from './testDatabase.js'
import type { WebhookStartOptions } from '../../webhooks/webhookDelivery.js'
import type { Resolver } from '../../webhooks/egress/resolveTarget.js'

type TapLike = Parameters<typeof createTestDatabase>[0]

const UNTHROTTLED = { RATE_LIMIT_PER_KEY: '100000000', RATE_LIMIT_PER_IP: '100000000', CONSOLE_SIGN_IN_PER_IP: '100000000' }

export type TestApp = {
  app: FastifyInstance
  runtime: Runtime
  /** A ready organization with one key for the deployment's environment. */
  org: { organizationId: string; apiKey: string; keyId: string }
  newOrganization(name?: string): Promise<{ organizationId: string; apiKey: string; keyId: string }>
  /** app.inject with the organization's key (or `apiKey`) as a Bearer token. */
  request(options: InjectOptions & { apiKey?: string | null }): Promise<LightMyRequestResponse>
  /** The app's and the runtime's log lines (empty when the test passed its own logger). */
  logs: LogCapture
  /** Secrets seen in requests and responses; searched for in `logs` at teardown. */
  secrets: SecretHarvest
}

/** Fails the test file when a captured log line holds a harvested secret (or any key or signing secret). */
export function assertNoSecretsLogged(logs: LogCapture, secrets: SecretHarvest): void {
  if (logs.droppedChars() > 0) throw new Error(`log capture full: ${logs.droppedChars()} characters not searched for secrets`)
  const leaks = secrets.leaksIn(logs.lines())
  if (leaks.length > 0) throw new Error(`${leaks.length} log line(s) hold a secret:\n${describeLeaks(leaks)}`)
}

/** A fixed key-encryption key for tests that run as production (32 bytes, base64). */
export const TEST_DATA_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64')
export const TEST_AUDIT_SIGNING_KEY = Buffer.alloc(32, 9).toString('base64')

export async function startTestApp(
  t: TapLike,
  env: Partial<Record<keyof Config, string>> = {},
  options: { logger?: Logger; webhooks?: WebhookStartOptions; resolver?: Resolver; printRuntimeErrors?: boolean; clock?: () => Date } = {},
): Promise<TestApp> {
  // One DNS for the endpoint URL check and the dispatcher: a test can change an answer between them.
  const resolver = options.resolver ?? options.webhooks?.resolver
  const { url: databaseUrl, drop } = await makeTestDatabase()
  // Debug by default: request lines are logged too, so the secrets check sees everything.
  // Limits far above what a test sends; test/server/rateLimit.e2e.test.ts sets small ones.
  // Production refuses to start without an explicit key; a sandbox shares ./data's key file with
  // the CLI and server processes a test spawns.
  const productionKey =
    env.APP_ENV === 'production' ? { DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY, AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY } : {}
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'debug', ...UNTHROTTLED, ...productionKey, ...env })
  const logs = createLogCapture(config.LOG_LEVEL)
  const secrets = createSecretHarvest()
  const logger = options.logger ?? logs.logger
  // The runtime's errors (webhook egress refusals, say) go to the app's logger; without a logger
  // of the test's own they are printed too, as before (unless printRuntimeErrors is false).
  const runtimeLog = options.logger
    ? { info: (m: string) => logger.info(m), error: (o: unknown, m?: string) => logger.error(o, m) }
    : {
        info: (m: string) => logs.logger.info(m),
        error: (o: unknown, m?: string) => {
          logs.logger.error(o, m)
          if (options.printRuntimeErrors ?? true) console.error(o)
        },
      }
  const runtime = await openRuntime(config, runtimeLog, { poolSize: 10 })
  await runtime.runner.start()
  // Webhook delivery only when asked (with a fast WEBHOOK_RETRY_SCHEDULE_MS in `env` and short tuning).
  if (options.webhooks) await runtime.webhooks.start({ ...options.webhooks, ...(resolver ? { resolver } : {}) })
  const app = await buildApp(runtime, logger, { ...(resolver ? { resolver } : {}), ...(options.clock ? { clock: options.clock } : {}) })
  await app.ready()
  // One teardown, in order: the app's connections close before the database is dropped.
  t.teardown(async () => {
    try {
      await app.close()
      await runtime.close()
    } finally {
      await drop()
    }
    assertNoSecretsLogged(logs, secrets)
  })
  // The key-encryption keys must never reach a log either (base64 and hex, as they may be given).
  for (const kek of runtime.keySource.keks.values()) {
    secrets.add('key-encryption key', kek.toString('base64'))
    secrets.add('key-encryption key', kek.toString('hex'))
  }
  const newOrganization = async (name = 'Test organization') => {
    const org = await createOrganization(runtime.commands, { name, environment: config.APP_ENV, actor: 'test' })
    secrets.add('API key', org.apiKey)
    await runtime.runner.waitFor(org.position, 10_000)
    return { organizationId: org.organizationId, apiKey: org.apiKey, keyId: org.keyId }
  }
  const org = await newOrganization()
  return {
    app,
    runtime,
    org,
    newOrganization,
    logs,
    secrets,
    async request({ apiKey, headers, ...options }) {
      const key = apiKey === undefined ? org.apiKey : apiKey
      const response = await app.inject({ ...options, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } })
      secrets.fromExchange(options.payload ?? options.body, response.statusCode, response.body)
      return response
    },
  }
}
