// `orgs create --name <name>`: a new organization with one API key for the configured APP_ENV.
import { parseArgs } from 'node:util'
import { ORGANIZATION_LIMITS, createOrganization } from '../../commands/organizations/organizationCommands.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { cliActor } from '../cliRuntime.js'
import { projectIssuedKey } from './projectIssuedKey.js'

export const orgsCreate: CliCommand = {
  words: ['orgs', 'create'],
  usage: 'orgs create --name <name>',
  summary: 'create an organization and print its first API key (shown once)',
  parse(argv) {
    const { values } = parseOrUsage(orgsCreate, () =>
      parseArgs({ args: argv, options: { name: { type: 'string' } }, strict: true, allowPositionals: false }),
    )
    const name = values.name?.trim() ?? ''
    if (name.length === 0 || name.length > ORGANIZATION_LIMITS.nameMaxLength) {
      throw usageError(orgsCreate, `--name is required, 1 to ${ORGANIZATION_LIMITS.nameMaxLength} characters`)
    }
    return async ({ runtime, out }) => {
      const org = await createOrganization(runtime.commands, { name, environment: runtime.config.APP_ENV, actor: cliActor() })
      const result = {
        organizationId: org.organizationId,
        name: org.name,
        apiKey: org.apiKey,
        keyId: org.keyId,
        environment: org.environment,
      }
      await projectIssuedKey(runtime, out, org.position, result)
    }
  },
}
