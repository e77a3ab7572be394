// The OpenAPI 3.0 document generated from the routes' zod schemas, served at /api-json, with an
// interactive viewer at /api.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Payments, FX and Customer Onboarding API',
        version: '1.0.0',
        description: [
          'Event-sourced payments service. Every /v1 operation needs an API key (Authorization: Bearer <API_KEY> or X-API-Key).',
          'Errors use one body: error, code, message, statusCode, details[] (field, message, value), requestId.',
          'POST, PUT, PATCH and DELETE accept Idempotency-Key (kept 24 hours, scoped to the organization).',
          'Every response carries X-Request-Id.',
        ].join('\n\n'),
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'sk_sandbox_... or sk_live_...' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api' })
  app.get('/api-json', { schema: { hide: true } }, async () => app.swagger())
}
