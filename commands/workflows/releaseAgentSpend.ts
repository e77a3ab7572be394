// An agent's transfer that is cancelled (by its owner, its agent, or a declined approval) or fails
// before its money moved (its hold refused for want of funds, say) releases what it reserved of the
// agent's limits (domain/agent-spend/). The release is decided from the spend's state: once per
// transfer, whatever the replays, and after the create route's own release alike (the command's id
// is derived from the event). A transfer without an agent has nothing to release.
import { agentSpendDecider } from '../../domain/agent-spend/decider.js'
import { transferDecider } from '../../domain/transfer/decider.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { streams } from '../../events/streams.js'
import type { Workflow } from './workflow.js'

const REASONS: Readonly<Record<string, string>> = { TransferCancelled: 'CANCELLED', TransferFailed: 'FAILED' }

export const releaseAgentSpend: Workflow = {
  name: 'release_agent_spend',
  handles: new Set(Object.keys(REASONS)),
  commandsFor(event) {
    const transferId = String(event.data.transferId)
    const organizationId = organizationOfEvent(event)
    return [
      {
        step: 'release',
        organizationId,
        async run(commands, context) {
          const { state } = await commands.load(transferDecider, streams.transfer(transferId))
          const agentId = state.status === 'none' ? null : state.created.agentId
          if (!agentId) return { position: undefined }
          const command = {
            type: 'ReleaseSpend' as const,
            agentId,
            organizationId,
            transferId,
            now: new Date().toISOString(),
            reason: REASONS[event.type] ?? 'RELEASED',
          }
          const result = await commands.handle(agentSpendDecider, streams.agentSpend(agentId), command, context)
          return { position: result.position }
        },
      },
    ]
  },
}
