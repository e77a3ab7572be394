// On first start (no organization yet) create a demo organization and print its sandbox key once.
import { sql } from 'kysely'
import { createOrganization } from '../commands/organizations/organizationCommands.js'
import type { Runtime } from './runtime.js'

export async function ensureDemoOrganization(runtime: Runtime, print: (line: string) => void): Promise<void> {
  // An advisory lock, so two processes starting together create one demo organization.
  await runtime.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(7171002)`.execute(trx)
    await runtime.runner.catchUp()
    const any = await trx.selectFrom('organizations').select('id').limit(1).executeTakeFirst()
    if (any) return
    const org = await createOrganization(runtime.store, { name: 'Demo organization', environment: runtime.config.APP_ENV, actor: 'system:first-start' })
    // Print only once the key authenticates: wait for the projections to pass its position.
    if (!(await runtime.runner.waitFor(org.position, 30_000))) throw new Error('projections did not catch up with the demo organization')
    print(`Created demo organization ${org.organizationId}. Its ${org.environment} API key, shown once:`)
    print(org.apiKey)
  })
}
