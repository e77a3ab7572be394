// Operator commands on organizations and their API keys (the CLI and first start use these).
import { newId } from '../../domain/shared/ids.js'
import { organizationDecider } from '../../domain/organization/decider.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { Position } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { type ApiKeyRole, generateApiKey, hashApiKey } from '../../domain/organization/apiKeys.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { Commands } from '../runtime/commandRuntime.js'

export const ORGANIZATION_LIMITS = { nameMaxLength: 200 } as const

export type IssuedKey = {
  organizationId: string
  keyId: string
  apiKey: string
  environment: Environment
  role: ApiKeyRole
  position: Position | undefined
}

const operatorOrigin = (organizationId: string, actor: string): CommandOrigin => ({
  organizationId,
  requestId: newId('req'),
  actor,
})

/** A key of the organization; `role` AUDITOR makes a read-only key (absent: FULL). */
export async function createApiKey(
  commands: Commands,
  input: { organizationId: string; environment: Environment; actor: string; role?: ApiKeyRole },
): Promise<IssuedKey> {
  const role = input.role ?? 'FULL'
  const apiKey = generateApiKey(input.environment)
  const keyId = newId('key')
  const result = await commands.handle(
    organizationDecider,
    streams.organization(input.organizationId),
    {
      type: 'CreateApiKey',
      organizationId: input.organizationId,
      keyId,
      environment: input.environment,
      keyHash: hashApiKey(apiKey),
      last4: apiKey.slice(-4),
      role,
      now: new Date().toISOString(),
    },
    operatorOrigin(input.organizationId, input.actor),
  )
  return { organizationId: input.organizationId, keyId, apiKey, environment: input.environment, role, position: result.position }
}

export async function createOrganization(
  commands: Commands,
  input: { name: string; environment: Environment; actor: string },
): Promise<IssuedKey & { name: string }> {
  const name = input.name.trim()
  if (name.length === 0 || name.length > ORGANIZATION_LIMITS.nameMaxLength) {
    throw new RangeError(`Organization name must be 1 to ${ORGANIZATION_LIMITS.nameMaxLength} characters`)
  }
  const organizationId = newId('org')
  await commands.handle(
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
  return { name, ...(await createApiKey(commands, { organizationId, environment: input.environment, actor: input.actor })) }
}

/** Turns the organization's agents feature on or off (early access; the CLI's `agents enable|disable`). */
export async function setAgentsFeature(
  commands: Commands,
  input: { organizationId: string; enabled: boolean; setBy: string; actor: string },
): Promise<Position | undefined> {
  const result = await commands.handle(
    organizationDecider,
    streams.organization(input.organizationId),
    {
      type: 'SetAgentsFeature',
      organizationId: input.organizationId,
      enabled: input.enabled,
      setBy: input.setBy,
      now: new Date().toISOString(),
    },
    operatorOrigin(input.organizationId, input.actor),
  )
  return result.position
}
