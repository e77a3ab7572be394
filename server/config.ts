// Process configuration from environment variables, parsed by one zod schema.
import { z } from 'zod'
import { sandboxDelayOverridesSchema } from '../domain/rails/index.js'
import { CRASH_POINTS } from '../commands/runtime/crashPoints.js'
import { WEBHOOK_LIMITS } from '../webhooks/limits.js'
import { environmentSchema } from '../domain/shared/environment.js'

const retrySchedule = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'comma-separated milliseconds')
  .transform((s) => s.split(',').map(Number))

/** `RAIL=ms,RAIL=ms` (ACH=500,ETHEREUM=2000): the sandbox rails engine's wait per step, by rail or chain. */
const railDelays = z
  .string()
  .max(2_000)
  .regex(/^([A-Z_]+=\d+)(,[A-Z_]+=\d+)*$/, 'comma-separated RAIL=milliseconds')
  .transform((s) => Object.fromEntries(s.split(',').map((pair) => [pair.split('=')[0]!, { stepMs: Number(pair.split('=')[1]) }])))
  .pipe(sandboxDelayOverridesSchema)

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  APP_ENV: environmentSchema.default('sandbox'),
  /** Tests only: the process kills itself at this step of a workflow (commands/runtime/crashPoints.ts). */
  CRASH_AT: z.enum(CRASH_POINTS).optional(),
  /** Overrides of the sandbox rails engine's per-step delays (domain/rails/sandboxDelays.ts defaults: 1-3 s). */
  SANDBOX_RAIL_DELAYS_MS: railDelays.default({}),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  EVENTSTORE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Webhook retry delays in milliseconds after the first attempt (issue 3 reads this). */
  WEBHOOK_RETRY_SCHEDULE_MS: retrySchedule.default([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]),
  /** One webhook attempt's timeout; a dispatcher's claim (lease) lasts WEBHOOK_LEASE_MS, by default this plus a margin. */
  WEBHOOK_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(WEBHOOK_LIMITS.requestTimeoutMs),
  /** How soon another dispatcher (or this server after a crash) sends a delivery whose process died; must exceed the timeout. */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(200).max(3_600_000).optional(),
  /**
   * Webhook endpoints one organization may have; creation past it is 422. Kept below the fan-out
   * cap (1 000 endpoints a message) so no endpoint misses a message; the bench raises it.
   */
  WEBHOOK_ENDPOINTS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(1_000_000_000).default(500),
  /**
   * How a new database keeps its read models (projections/runtime/projectionMode.ts): 'inline', in
   * the events' own transaction (the default on the Postgres store), or 'async', from $all by the
   * consumer runtime (always so on EventStoreDB). A database keeps the mode it was made with.
   */
  PROJECTIONS: z.enum(['inline', 'async']).optional(),
  /** Longest a command waits for the projections before answering (read-your-writes). */
  PROJECTION_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Customer verification links: base of verificationUrl, session lifetime (expiry runs on the scheduler). */
  VERIFICATION_URL_BASE: z.string().url().default('https://verify.sandbox.example.com'),
  VERIFICATION_SESSION_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(30 * 24 * 3_600_000)
    .default(7 * 24 * 3_600_000),
  /** Requests one API key may make per window (a real API's order: Stripe allows about 100 a second per key). */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).max(100_000_000).default(100),
  RATE_LIMIT_PER_KEY_WINDOW_MS: z.coerce.number().int().min(100).max(3_600_000).default(1_000),
  /** Requests one IP address may make per window without a valid key: public routes, and missing or failed authentication. */
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).max(100_000_000).default(300),
  /**
   * The key-encryption key (32 random bytes, base64 or hex) that wraps every data key; required in
   * production. Without it a sandbox keeps one in DATA_DIR/data-encryption-keys.json (mode 0600).
   */
  DATA_ENCRYPTION_KEY: z.string().min(1).max(200).optional(),
  /** Earlier KEKs, comma-separated: data keys they wrapped still open until `keys rotate-kek` re-wraps them. */
  DATA_ENCRYPTION_KEY_PREVIOUS: z.string().max(5_000).optional(),
  /**
   * The Ed25519 key (a 32-byte seed, base64 or hex) that signs the audit checkpoints; required in
   * production. Without it a sandbox keeps one in DATA_DIR/audit-signing-key (mode 0600).
   */
  AUDIT_SIGNING_KEY: z.string().min(1).max(200).optional(),
  /** How often a checkpoint of the event log's Merkle tree is signed, when events arrived since the last. */
  AUDIT_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  /** How long an archived customer's personal data is kept before it is shredded (default 5 years, in days). */
  CUSTOMER_DATA_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(1_826),
  RATE_LIMIT_PER_IP_WINDOW_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** GET /ready answers 503 until every consumer has at most this many events to handle... */
  READY_MAX_LAG_EVENTS: z.coerce.number().int().min(0).max(10_000_000).default(1_000),
  /** ...and none of them older than this (server/ready.ts). */
  READY_MAX_LAG_SECONDS: z.coerce.number().min(0).max(86_400).default(30),
  /**
   * When set, GET /metrics and the dead letters' details in GET /health (tenant, stream, error) need
   * `Authorization: Bearer <METRICS_TOKEN>`. Unset: /metrics is open (it has no tenant labels), and
   * /health shows the details in sandbox only.
   */
  METRICS_TOKEN: z.string().min(16).max(200).optional(),
  /** The console's built files (`npm run build:console`), served at /console/; relative to the working directory. */
  CONSOLE_DIST_DIR: z.string().min(1).max(1_000).default('console/dist'),
  /** Console sign-ins (POST /console/session) one IP address may attempt per minute, on top of RATE_LIMIT_PER_IP. */
  CONSOLE_SIGN_IN_PER_IP: z.coerce.number().int().min(1).max(100_000_000).default(10),
})

export type Config = z.infer<typeof configSchema>

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`)
  }
  return parsed.data
}
