// Operator commands on organizations and their API keys (the CLI and first start use these).
import { newId } from '../../domain/shared/ids.js'
import { organizationDecider } from '../../domain/organization/decider.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { generateApiKey, hashApiKey } from '../../domain/organization/apiKeys.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import { handleCommand } from '../runtime/handleCommand.js'

export const ORGANIZATION_LIMITS = { nameMaxLength: 200 } as const

export type IssuedKey = { organizationId: string; keyId: string; apiKey: string; environment: Environment; position: Position | undefined }

const operatorOrigin = (organizationId: string, actor: string): CommandOrigin => ({
  organizationId,
  requestId: newId('req'),
  actor,
})

export async function createApiKey(
  store: EventStore,
  input: { organizationId: string; environment: Environment; actor: string },
): Promise<IssuedKey> {
  const apiKey = generateApiKey(input.environment)
  const keyId = newId('key')
  const result = await handleCommand(
    store,
    organizationDecider,
    streams.organization(input.organizationId),
    {
      type: 'CreateApiKey',
      organizationId: input.organizationId,
      keyId,
      environment: input.environment,
      keyHash: hashApiKey(apiKey),
      last4: apiKey.slice(-4),
      now: new Date().toISOString(),
    },
    operatorOrigin(input.organizationId, input.actor),
  )
  return { organizationId: input.organizationId, keyId, apiKey, environment: input.environment, position: result.position }
}

export async function createOrganization(
  store: EventStore,
  input: { name: string; environment: Environment; actor: string },
): Promise<IssuedKey & { name: string }> {
  const name = input.name.trim()
  if (name.length === 0 || name.length > ORGANIZATION_LIMITS.nameMaxLength) {
    throw new RangeError(`Organization name must be 1 to ${ORGANIZATION_LIMITS.nameMaxLength} characters`)
  }
  const organizationId = newId('org')
  await handleCommand(
    store,
    organizationDecider,
    streams.organization(organizationId),
    {
      type: 'CreateOrganization',
      organizationId,
      name,
      now: new Date().toISOString(),
    },
    operatorOrigin(organizationId, input.actor),
  )
  return { name, ...(await createApiKey(store, { organizationId, environment: input.environment, actor: input.actor })) }
}
