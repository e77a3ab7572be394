// A reference beside the read toy for the transfer list: fastify answering the same 50 stored
// transfers the list answers for status=PENDING (the same index, the same rows, their stored JSON
// spliced into the page), with none of the service (auth, scope, filters, links, hooks). The read
// toy answers 50 rows of ~200 bytes; a transfer page is ~125 KB, so this one tells how much of the
// gap is the page itself. Run directly as a child process (DATABASE_URL, TOY_ORGANIZATION_ID) it
// prints {"port"} once it listens.
import Fastify from 'fastify'
import pg from 'pg'
import { type ToyServer, listenToy, runToyIfMain } from './toyListen.js'

export const TRANSFER_TOY_LIMITS = { poolSize: 10, pageSize: 50 } as const

export async function startTransferToyServer(connectionString: string): Promise<ToyServer> {
  const organizationId = process.env.TOY_ORGANIZATION_ID
  if (!organizationId) throw new Error('the transfer toy needs TOY_ORGANIZATION_ID')
  const pool = new pg.Pool({ connectionString, max: TRANSFER_TOY_LIMITS.poolSize })
  const app = Fastify({ logger: false })
  app.get('/toy/transfers', async (_request, reply) => {
    const { rows } = await pool.query<{ resource: string }>(
      'SELECT t.resource::text AS resource FROM (SELECT id FROM transfers WHERE organization_id = $1 AND status = $2 ' +
        'ORDER BY id DESC LIMIT $3) AS page JOIN transfers t ON t.id = page.id ORDER BY t.id DESC',
      [organizationId, 'PENDING', TRANSFER_TOY_LIMITS.pageSize + 1],
    )
    const data = rows.slice(0, TRANSFER_TOY_LIMITS.pageSize).map((row) => row.resource)
    return reply
      .type('application/json; charset=utf-8')
      .send(`{"has_more":${rows.length > TRANSFER_TOY_LIMITS.pageSize},"data":[${data.join(',')}]}`)
  })
  return listenToy(app, pool, 'transfer toy server')
}

await runToyIfMain(import.meta.url, 'transferToyServer', startTransferToyServer)
