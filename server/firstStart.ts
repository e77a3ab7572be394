// On first start (an empty event log), in sandbox only: create a demo organization and print its
// sandbox key once. Production creates nothing and prints no key (an operator runs `orgs create`).
// Boot never depends on the projections: "first start" is read from the event store, and a key
// not yet projected is printed anyway (shown once), with a note.
import { sql } from 'kysely'
import { createOrganization } from '../commands/organizations/organizationCommands.js'
import type { Runtime } from './runtime.js'

export const FIRST_START_LIMITS = {
  /** Longest the demo key waits to authenticate before it is printed anyway. */
  keyWaitMs: 10_000,
} as const

export type FirstStartResult = 'created' | 'not_first_start' | 'production'

/** The CLI as the operator of this server runs it: compiled beside a compiled server (dist/, the image), else from the sources. */
const CLI = import.meta.url.endsWith('.js') ? 'node dist/cli/main.js' : 'npm run -s cli --'

export async function ensureDemoOrganization(
  runtime: Pick<Runtime, 'config' | 'db' | 'store' | 'commands' | 'runner'>,
  print: (line: string) => void,
  limits: { keyWaitMs: number } = FIRST_START_LIMITS,
): Promise<FirstStartResult> {
  // An advisory lock, so two processes starting together create one demo organization.
  const org = await runtime.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(7171002)`.execute(trx)
    if ((await runtime.store.readAll({ maxCount: 1 })).length > 0) return 'not_first_start' as const
    if (runtime.config.APP_ENV === 'production') return 'production' as const
    return createOrganization(runtime.commands, {
      name: 'Demo organization',
      environment: runtime.config.APP_ENV,
      actor: 'system:first-start',
    })
  })
  if (org === 'not_first_start') return org
  if (org === 'production') {
    print(`Production: no demo organization is created. Create one with: ${CLI} orgs create --name "<name>"`)
    return org
  }
  // Print once the key authenticates if the projections get there in time; the key is shown only
  // once, so it is printed either way.
  const usable = await runtime.runner.waitFor(org.position, limits.keyWaitMs)
  print(`Created demo organization ${org.organizationId}. Its ${org.environment} API key, shown once:`)
  print(org.apiKey)
  if (!usable) print(`(The projections have not caught up yet: the key authenticates once they do. See: ${CLI} projections status)`)
  return 'created'
}
