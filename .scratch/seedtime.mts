import { createOrganization } from '../commands/organizations/organizationCommands.js'
import { loadConfig } from '../server/config.js'
import { openRuntime } from '../server/runtime.js'
import { appendSeedAccounts } from '../bench/accountListSeed.js'
const n = Number(process.argv[3] ?? 100000)
const config = loadConfig({ DATABASE_URL: process.argv[2]!, LOG_LEVEL: 'silent' })
const runtime = await openRuntime(config, { info: () => undefined, error: (o, m) => console.error(m, o) })
const org = await createOrganization(runtime.store, { name: 'Bench', environment: config.APP_ENV, actor: 'bench' })
let t = performance.now()
await appendSeedAccounts(runtime.store, org.organizationId, 0, n)
console.log('append', ((performance.now() - t) / 1000).toFixed(1), 's')
t = performance.now()
await runtime.runner.catchUp()
console.log('project', ((performance.now() - t) / 1000).toFixed(1), 's')
console.log(JSON.stringify(org))
await runtime.close()
