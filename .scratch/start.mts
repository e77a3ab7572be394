import { startEmbeddedPostgres } from '../server/database/embeddedPostgres.js'
const cluster = await startEmbeddedPostgres({ dataDir: '/tmp/acctlists-pg', database: 'postgres' })
console.log(cluster.connectionString('postgres'))
