// `keys create --org <organizationId> [--role full|auditor|operator]`: one more API key for an existing
// organization; an auditor key only reads (server/auth/auditorScope.ts), an operator key reaches the
// deployment's operator routes and nothing of a tenant (server/auth/operatorScope.ts).
import { parseArgs } from 'node:util'
import { createApiKey } from '../../commands/organizations/organizationCommands.js'
import { API_KEY_ROLES, type ApiKeyRole } from '../../domain/organization/apiKeys.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { cliActor } from '../cliRuntime.js'
import { projectIssuedKey } from './projectIssuedKey.js'

/** Longer than any id we issue; stops an accidental paste of a whole file into a stream name. */
const MAX_ORG_ID_LENGTH = 100

const roleOf = (value: string | undefined): ApiKeyRole | undefined => {
  const upper = (value ?? 'full').toUpperCase()
  return API_KEY_ROLES.find((role) => role === upper)
}

export const keysCreate: CliCommand = {
  words: ['keys', 'create'],
  usage: 'keys create --org <organizationId> [--role full|auditor|operator]',
  summary:
    'create an API key for an organization and print it (shown once); --role auditor: a read-only key; --role operator: ' +
    'the deployment-wide operator routes only',
  parse(argv) {
    const { values } = parseOrUsage(keysCreate, () =>
      parseArgs({ args: argv, options: { org: { type: 'string' }, role: { type: 'string' } }, strict: true, allowPositionals: false }),
    )
    const organizationId = values.org?.trim() ?? ''
    if (organizationId.length === 0 || organizationId.length > MAX_ORG_ID_LENGTH) {
      throw usageError(keysCreate, `--org is required, 1 to ${MAX_ORG_ID_LENGTH} characters`)
    }
    const role = roleOf(values.role)
    if (!role) throw usageError(keysCreate, '--role must be full, auditor or operator')
    return async ({ runtime, out }) => {
      // The decider refuses an unknown organization (DomainError not_found), before any append.
      const key = await createApiKey(runtime.commands, { organizationId, environment: runtime.config.APP_ENV, actor: cliActor(), role })
      await projectIssuedKey(runtime, out, key.position, {
        organizationId,
        apiKey: key.apiKey,
        keyId: key.keyId,
        environment: key.environment,
        role: key.role,
      })
    }
  },
}
