// What both toy servers (the write and the read ceiling) share: listen on a free loopback port,
// close app and pool together, and run as a bench child when started as a script.
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { pathToFileURL } from 'node:url'
import { stopWhenToldOrOrphaned } from './child.js'

export type ToyServer = { app: FastifyInstance; port: number; close(): Promise<void> }

export async function listenToy(app: FastifyInstance, pool: pg.Pool, name: string): Promise<ToyServer> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (typeof address !== 'object' || !address) throw new Error(`${name} has no address`)
  return {
    app,
    port: address.port,
    async close() {
      await app.close()
      await pool.end()
    },
  }
}

/** Started as a script (a bench child): serve on DATABASE_URL, print {"port"} and stop when told. */
export async function runToyIfMain(moduleUrl: string, name: string, start: (url: string) => Promise<ToyServer>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return
  const url = process.env.DATABASE_URL
  if (!url) throw new Error(`${name} needs DATABASE_URL`)
  const toy = await start(url)
  stopWhenToldOrOrphaned(() => toy.close())
  process.stdout.write(`${JSON.stringify({ port: toy.port })}\n`)
}
