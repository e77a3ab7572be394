// The OpenAPI 3.0 document generated from the routes' zod schemas, served at /api-json, with an
// interactive viewer at /api.
import swagger, { type SwaggerTransformObject } from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { INPUT_LIMITS } from '../input/limits.js'
import { attachExamples } from './attachExamples.js'
import './components.js'
import { describeParameters } from './describeParameters.js'
import { shareComponents } from './shareComponents.js'
import { in30Wording } from './openapi30.js'
import { RECORDED_EXAMPLES } from './recordedExamples.js'
import { OPENAPI_TAGS } from './tags.js'

/** Where the API answers: the local sandbox `npm start` serves, and a production deployment behind TLS. */
const SERVERS = [
  { url: 'http://127.0.0.1:3000', description: 'Local sandbox: npm start (APP_ENV=sandbox, HOST 127.0.0.1, PORT 3000)' },
  {
    url: 'https://{host}',
    description: 'A production deployment (APP_ENV=production) behind TLS',
    variables: { host: { default: 'payments.your-company.test', description: 'The host name (and port) your deployment is served at' } },
  },
]

/**
 * The registry's components, their references in 3.0 wording, twins merged, unused ones dropped,
 * $ref parameters described, and each operation's recorded example.
 */
const finishDocument: SwaggerTransformObject = (document) =>
  attachExamples(describeParameters(shareComponents(in30Wording(jsonSchemaTransformObject(document)))), RECORDED_EXAMPLES)

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Payments, FX and Customer Onboarding API',
        version: '1.0.0',
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
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
      servers: SERVERS,
      tags: [...OPENAPI_TAGS],
    },
    transform: jsonSchemaTransform,
    transformObject: finishDocument,
  })
  await app.register(swaggerUi, { routePrefix: '/api' })
  app.get('/api-json', { schema: { hide: true } }, async () => app.swagger())
}
