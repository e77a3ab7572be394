// The fastify application: error model, request ids, auth, idempotency, OpenAPI and the routes.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import { type ZodTypeProvider, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { Logger } from 'pino'
import type { Resolver } from '../webhooks/egress/resolveTarget.js'
import { AREA_PLUGINS, ROOT_AREA_PLUGINS } from './areas.js'
import type { AreaContext } from './areas/areaContext.js'
import { authenticate } from './auth/authenticate.js'
import { onBehalfOf } from './auth/onBehalfOf.js'
import { agentScope } from './auth/agentScope.js'
import { auditorScope } from './auth/auditorScope.js'
import { operatorScope } from './auth/operatorScope.js'
import { registerConsole } from './console/consoleArea.js'
import { operatorArea } from './operator/operatorArea.js'
import { onClientError } from './errors/clientErrors.js'
import { registerErrorHandling } from './errors/errorHandler.js'
import { MAX_PATH_SEGMENT_LENGTH, onFrameworkError } from './errors/frameworkErrors.js'
import { healthRoutes } from './health.js'
import { idempotency } from './idempotency/idempotency.js'
import { registerJsonBodyParser } from './input/jsonBodyParser.js'
import { pathAndQueryGuard } from './input/pathAndQueryGuard.js'
import { registerOpenApi } from './openapi/index.js'
import { rateLimits } from './rateLimit/rateLimit.js'
import { requestIdFor } from './requestId.js'
import { CONSUMER_NAMES, type Runtime } from './runtime.js'
import { createLagProbe } from './observability/lagProbe.js'
import { readyRoutes } from './ready.js'
import { metricsRoutes } from './metrics/metricsRoutes.js'
import { observeHttpRequests } from './metrics/httpMetrics.js'

export const HTTP_LIMITS = {
  bodyLimitBytes: 1_048_576,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
} as const

/**
 * `resolver` replaces DNS in the endpoint URL check (tests of names that resolve to private addresses);
 * `clock` the time credit line fees are computed at (tests of hour boundaries).
 */
export async function buildApp(
  runtime: Pick<
    Runtime,
    'config' | 'db' | 'commands' | 'webhooks' | 'protection' | 'metrics' | 'projectionMode' | 'runner' | 'auditSealing'
  >,
  logger: Logger,
  options: { resolver?: Resolver; clock?: () => Date } = {},
): Promise<FastifyInstance> {
  const { config, db, commands } = runtime
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: requestIdFor,
    bodyLimit: HTTP_LIMITS.bodyLimitBytes,
    requestTimeout: HTTP_LIMITS.requestTimeoutMs,
    keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_LENGTH },
    // Errors raised before routing (bad percent-encoding, an over-long segment) and by Node's HTTP
    // parser (headers over 16 KB) leave in the one error body too.
    frameworkErrors: onFrameworkError,
    clientErrorHandler: onClientError,
    // Request/response lines only at debug or trace: at info they would double the log volume.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' }),
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandling(app)
  registerJsonBodyParser(app)
  // First, so every route's requests are counted and timed (404s too).
  observeHttpRequests(app, runtime.metrics)
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  await app.register(pathAndQueryGuard)

  await registerOpenApi(app)
  // Operators' routes, outside /v1 and without an API key (server/observability/, server/metrics/).
  const clock = options.clock ?? (() => new Date())
  const lag = createLagProbe({ runtime, store: commands.store, db, clock })
  await app.register(healthRoutes, {
    db,
    environment: config.APP_ENV,
    eventStore: commands.store.kind,
    lag,
    clock,
    metricsToken: config.METRICS_TOKEN,
  })
  await app.register(readyRoutes, {
    db,
    store: commands.store,
    lag,
    maxLagEvents: config.READY_MAX_LAG_EVENTS,
    maxLagSeconds: config.READY_MAX_LAG_SECONDS,
  })
  await app.register(metricsRoutes, {
    metrics: runtime.metrics,
    sources: { lag, db, groups: CONSUMER_NAMES },
    metricsToken: config.METRICS_TOKEN,
  })
  // Per key after authentication (a preValidation hook, so it sees the principal the /v1 scope's
  // onRequest hook set), per IP for requests without a valid key.
  await app.register(rateLimits, {
    perKey: { max: config.RATE_LIMIT_PER_KEY, windowMs: config.RATE_LIMIT_PER_KEY_WINDOW_MS },
    perIp: { max: config.RATE_LIMIT_PER_IP, windowMs: config.RATE_LIMIT_PER_IP_WINDOW_MS },
  })

  const context: AreaContext = {
    config,
    db,
    environment: config.APP_ENV,
    commands,
    webhooks: runtime.webhooks,
    protection: runtime.protection,
    clock,
    audit: {
      sealing: runtime.auditSealing,
      caughtUp: async (timeoutMs) => {
        const head = await runtime.commands.store.readHead()
        return head ? runtime.runner.auditTree.waitFor(head.position, timeoutMs) : true
      },
    },
    ...(options.resolver ? { resolver: options.resolver } : {}),
  }
  // The console (issue 30): its session routes and built files outside /v1, and the session cookie /v1 accepts.
  const sessions = await registerConsole(app, {
    db,
    environment: config.APP_ENV,
    clock,
    distDir: config.CONSOLE_DIST_DIR,
    signInPerIp: config.CONSOLE_SIGN_IN_PER_IP,
  })
  await app.register(
    async (v1) => {
      // Inside the /v1 scope, so they run for every route the router matched here however its path
      // was spelled (%76 for v, mixed-case hex), and for no other route.
      await v1.register(authenticate, { db, environment: config.APP_ENV, clock: context.clock, sessions })
      await v1.register(onBehalfOf, { db })
      await v1.register(agentScope)
      await v1.register(auditorScope)
      await v1.register(operatorScope)
      await v1.register(idempotency, { db, protection: runtime.protection })
      for (const area of AREA_PLUGINS) await v1.register(area, context)
      await v1.register(operatorArea, { db, lag, store: commands.store })
    },
    { prefix: '/v1' },
  )
  for (const area of ROOT_AREA_PLUGINS) await app.register(area, context)

  return app
}
