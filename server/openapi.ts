// The OpenAPI 3.0 document generated from the routes' zod schemas, served at /api-json, with an
// interactive viewer at /api.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { INPUT_LIMITS } from './input/limits.js'

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Payments, FX and Customer Onboarding API',
        version: '1.0.0',
        description: [
          'Event-sourced payments service. Every /v1 operation needs an API key (Authorization: Bearer <API_KEY> or X-API-Key; ' +
            'both headers, when sent together, must name the same key, else 401).',
          'Errors use one body: error, code, message, statusCode, details[] (field, message, value), requestId.',
          `Bodies are JSON in UTF-8 (Content-Type: application/json; any other charset is 415), at most 1 MiB and ` +
            `${INPUT_LIMITS.maxJsonDepth} levels deep. ` +
            'Each key appears once per object, and __proto__, constructor and prototype are not keys. No string (in a body, path or ' +
            'query) ' +
            'may contain U+0000 or an unpaired UTF-16 surrogate, and no string in a body (keys, metadata and ids included) a control ' +
            'character (U+0000-U+001F, U+007F-U+009F); only the descriptions, explanations and remarks of the customer forms may ' +
            'span lines (tab and line feed). Each of these is a 400 whose details[].field names the field.',
          'POST, PUT, PATCH and DELETE accept Idempotency-Key (kept 24 hours, scoped to the organization).',
          'Every response carries X-Request-Id.',
          'While the database cannot be reached, requests answer 503 ServiceUnavailableError database_unavailable with Retry-After.',
        ].join('\n\n'),
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'sk_sandbox_... or sk_live_...' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          // The console's session (server/console/): /v1 accepts it when neither header is sent.
          consoleSession: { type: 'apiKey', in: 'cookie', name: 'console_session' },
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { consoleSession: [] }],
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api' })
  app.get('/api-json', { schema: { hide: true } }, async () => app.swagger())
}
