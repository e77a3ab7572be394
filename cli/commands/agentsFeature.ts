// `agents enable|disable --organization <org> [--operator <name>]`: the organization's agents switch
// (early access: off until an operator turns it on). Disabling stops every agent key of the
// organization at once; its agents stay as they are for when agents are enabled again. Audited: the
// operator is the event's actor and setBy.
import { parseArgs } from 'node:util'
import { setAgentsFeature } from '../../commands/organizations/organizationCommands.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { cliActor } from '../cliRuntime.js'

const MAX_ORGANIZATION_ID_LENGTH = 100
const MAX_OPERATOR_LENGTH = 100

function agentsSwitch(enabled: boolean): CliCommand {
  const command: CliCommand = {
    words: ['agents', enabled ? 'enable' : 'disable'],
    usage: `agents ${enabled ? 'enable' : 'disable'} --organization <orgId> [--operator <name>]`,
    summary: enabled
      ? 'let an organization create agents and issue agent keys (early access); audited'
      : "stop an organization's agents: creation and key issuance 403 agents_not_enabled, every agent key refused; audited",
    parse(argv) {
      const { values } = parseOrUsage(command, () =>
        parseArgs({
          args: argv,
          options: { organization: { type: 'string' }, operator: { type: 'string' } },
          strict: true,
          allowPositionals: false,
        }),
      )
      const organizationId = values.organization ?? ''
      if (!organizationId.startsWith('org_') || organizationId.length > MAX_ORGANIZATION_ID_LENGTH)
        throw usageError(command, '--organization is required: an organization id (org_...)')
      const operator = values.operator?.trim()
      if (operator !== undefined && (operator.length === 0 || operator.length > MAX_OPERATOR_LENGTH))
        throw usageError(command, `--operator must be 1 to ${MAX_OPERATOR_LENGTH} characters`)
      return async ({ runtime, out, log }) => {
        const actor = cliActor()
        await setAgentsFeature(runtime.commands, { organizationId, enabled, setBy: operator ?? actor, actor })
        log.info({ organizationId, enabled }, 'agents switch set')
        await out.document({ organizationId, agentsEnabled: enabled })
      }
    },
  }
  return command
}

export const agentsEnable = agentsSwitch(true)
export const agentsDisable = agentsSwitch(false)
