// The ceiling the list routes are compared with: fastify answering one indexed SELECT of a 50-row
// page (rows shaped like webhook endpoints: text, text[], jsonb, timestamps) as JSON, on the same
// Postgres (pool of 10). Run directly as a child process it prints {"port"} once it listens.
import Fastify from 'fastify'
import pg from 'pg'
import { type ToyServer, listenToy, runToyIfMain } from './toyListen.js'

export const READ_TOY_LIMITS = { poolSize: 10, seededRows: 60, pageSize: 50 } as const

const ORGANIZATION = 'org_toy'

async function seed(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS toy_list (
    organization_id text NOT NULL, id text NOT NULL, url text NOT NULL, description text NOT NULL,
    filter_types text[] NOT NULL, disabled boolean NOT NULL, metadata jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id))`)
  for (let i = 0; i < READ_TOY_LIMITS.seededRows; i++) {
    await pool.query(
      `INSERT INTO toy_list (organization_id, id, url, description, filter_types, disabled, metadata)
       VALUES ($1, $2, $3, $4, $5, false, $6) ON CONFLICT DO NOTHING`,
      [
        ORGANIZATION,
        `ep_${String(i).padStart(26, '0')}`,
        'https://hooks.example.com/payments',
        'benchmark endpoint',
        ['transfer.completed', 'transfer.failed'],
        JSON.stringify({ team: 'bench' }),
      ],
    )
  }
}

export async function startReadToyServer(connectionString: string): Promise<ToyServer> {
  const pool = new pg.Pool({ connectionString, max: READ_TOY_LIMITS.poolSize })
  await seed(pool)
  const app = Fastify({ logger: false })
  app.get('/toy/list', async () => {
    const { rows } = await pool.query<{ id: string; created_at: Date; updated_at: Date }>(
      'SELECT id, url, description, filter_types, disabled, metadata, created_at, updated_at FROM toy_list WHERE organization_id = $1 ' +
        'ORDER BY id DESC LIMIT $2',
      [ORGANIZATION, READ_TOY_LIMITS.pageSize + 1],
    )
    return { has_more: rows.length > READ_TOY_LIMITS.pageSize, data: rows.slice(0, READ_TOY_LIMITS.pageSize) }
  })
  return listenToy(app, pool, 'read toy server')
}

await runToyIfMain(import.meta.url, 'readToyServer', startReadToyServer)
