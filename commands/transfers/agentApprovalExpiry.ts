// An agent's transfer waiting for its owner's approval expires on the scheduler: a consumer of the
// TransferSubmitted that put it in PENDING_AUTHORIZATION puts an ExpireAgentApproval command on the
// timer table for its agentApprovalExpiresAt, in the same transaction as its checkpoint (the row id
// is the transfer's, so a replay schedules none twice). A decided approval ignores the timer.
import type { Kysely } from 'kysely'
import { TransferSubmitted } from '../../domain/transfer/events.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'

export const agentApprovalExpiryTimerId = (transferId: string) => `agent-approval-expiry:${transferId}`

async function scheduleExpiry(db: Kysely<SchedulerDatabase>, event: RecordedEvent): Promise<void> {
  const submitted = TransferSubmitted.parse(event.data)
  if (submitted.agentApprovalExpiresAt === undefined) return
  const { organizationId, transferId } = submitted
  await scheduleCommand(db, {
    id: agentApprovalExpiryTimerId(transferId),
    organizationId,
    aggregate: 'transfer',
    stream: streams.transfer(transferId),
    command: { type: 'ExpireAgentApproval', organizationId, transferId },
    dueAt: new Date(submitted.agentApprovalExpiresAt),
  })
}

/** Runs with the workflows (it owns no read-model table): see commands/scheduler/timerConsumers.ts. */
export const agentApprovalExpiryScheduling: Consumer<SchedulerDatabase> = {
  name: 'agent_approval_expiry_timers',
  handles: new Set(['TransferSubmitted']),
  async apply(trx, events) {
    for (const event of events) await scheduleExpiry(trx, event)
  },
}
