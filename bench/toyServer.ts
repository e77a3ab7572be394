// The ceiling the command path is compared with: fastify, zod validation of the same JSON body as
// POST /v1/webhooks/endpoints, and one INSERT on the same Postgres (pool of 10). Run directly as a
// child process it prints {"port"} once it listens.
import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import { type ZodTypeProvider, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import pg from 'pg'
import { createWebhookEndpointBody } from '../domain/webhook-endpoint/resource.js'
import { type ToyServer, listenToy, runToyIfMain } from './toyListen.js'

export const TOY_LIMITS = { poolSize: 10, bodyLimitBytes: 1_048_576 } as const

export async function startToyServer(connectionString: string): Promise<ToyServer> {
  const pool = new pg.Pool({ connectionString, max: TOY_LIMITS.poolSize })
  await pool.query(`CREATE TABLE IF NOT EXISTS toy_endpoints (
    id text PRIMARY KEY, url text NOT NULL, description text NOT NULL, body jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now())`)
  const app = Fastify({ logger: false, bodyLimit: TOY_LIMITS.bodyLimitBytes }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.post('/toy/endpoints', { schema: { body: createWebhookEndpointBody } }, async (request, reply) => {
    const id = `ep_${randomUUID()}`
    const row = await pool.query<{ created_at: Date }>(
      'INSERT INTO toy_endpoints (id, url, description, body) VALUES ($1, $2, $3, $4) RETURNING created_at',
      [id, request.body.url, request.body.description, JSON.stringify(request.body)],
    )
    return reply.code(201).send({ id, ...request.body, createdAt: row.rows[0]!.created_at.toISOString() })
  })
  return listenToy(app, pool, 'toy server')
}

await runToyIfMain(import.meta.url, 'toyServer', startToyServer)
