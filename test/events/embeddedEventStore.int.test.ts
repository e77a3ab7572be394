// The embedded default's start-up path: a PostgreSQL started from npm-shipped binaries under a
// fresh DATA_DIR, then the same event store contract on it.
import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { startEmbeddedPostgres } from '../../server/database/embeddedPostgres.js'
import { eventStoreContract } from '../contract/eventStoreContract.js'

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-default-'))
const cluster = await startEmbeddedPostgres({ dataDir, database: 'payments' })
t.teardown(async () => {
  await cluster.stop()
  await rm(dataDir, { recursive: true, force: true })
})

t.test('start-up: initialises once, and a second process attaches to the running server', async (t) => {
  t.equal(cluster.startedHere, true)
  const again = await startEmbeddedPostgres({ dataDir, database: 'payments' })
  t.equal(again.startedHere, false, 'found running through postmaster.pid')
  t.equal(again.port, cluster.port)
  await again.stop()
})

t.test('contract on the embedded default', async (t) => {
  eventStoreContract(t, () => getPostgresEventStore({ connectionString: cluster.connectionString('payments') }))
})
