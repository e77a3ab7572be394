// An AUDITOR key of the test app's organization, made the way `keys create --role auditor` makes one,
// kept among the secrets no log may hold, and usable once the read side has it.
import { createApiKey } from '../../commands/organizations/organizationCommands.js'
import type { TestApp } from '../harness/testApp.js'

export async function auditorKeyOf(h: TestApp, actor: string): Promise<{ apiKey: string; keyId: string }> {
  const auditor = await createApiKey(h.runtime.commands, {
    organizationId: h.org.organizationId,
    environment: h.runtime.config.APP_ENV,
    actor,
    role: 'AUDITOR',
  })
  h.secrets.add('API key', auditor.apiKey)
  await h.runtime.runner.waitFor(auditor.position, 10_000)
  return { apiKey: auditor.apiKey, keyId: auditor.keyId }
}
