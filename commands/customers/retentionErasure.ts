// An archived customer's personal data is kept for the retention period (CUSTOMER_DATA_RETENTION_DAYS,
// five years by default: the usual financial record-keeping term), then erased. A consumer of
// CustomerArchived puts an EraseCustomerData command on the timer table, due at archivedAt plus
// the period, in the same transaction as its checkpoint: a crash after the archive loses nothing,
// and a replay schedules nothing twice (the timer's id is the customer's: archiving is terminal).
// The erasure's own workflow then shreds the data key (commands/workflows/shredErasedCustomerData.ts).
import type { Kysely } from 'kysely'
import { CustomerArchived } from '../../domain/customer/events.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { SCHEDULER_ACTOR } from '../scheduler/runDueCommands.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'

const DAY_MS = 86_400_000

/** The timer's id, and so the erasure command's commandId: one per customer, forever. */
export const retentionTimerId = (customerId: string) => `customer-data-retention:${customerId}`

/** When an archived customer's data is erased. */
export const retentionDueAt = (archivedAt: string, retentionDays: number): Date => new Date(Date.parse(archivedAt) + retentionDays * DAY_MS)

async function scheduleErasure(db: Kysely<SchedulerDatabase>, event: RecordedEvent, retentionDays: number): Promise<void> {
  const archived = CustomerArchived.parse(event.data)
  const organizationId = organizationOfEvent(event)
  await scheduleCommand(db, {
    id: retentionTimerId(archived.customerId),
    organizationId,
    aggregate: 'customer',
    stream: streams.customer(archived.customerId),
    command: {
      type: 'EraseCustomerData',
      organizationId,
      customerId: archived.customerId,
      trigger: 'RETENTION',
      erasedBy: SCHEDULER_ACTOR,
      reason: `retention period of ${retentionDays} days after archiving ended`,
    },
    dueAt: retentionDueAt(archived.archivedAt, retentionDays),
  })
}

/**
 * The consumer that schedules retention erasures. Like the session expiry timers it owns no tables
 * and runs with the workflows. The period in force when a customer is archived is the one used.
 */
export function retentionErasureScheduling(retentionDays: number): Consumer<SchedulerDatabase> {
  return {
    name: 'customer_retention_timers',
    handles: new Set(['CustomerArchived']),
    async apply(trx, events) {
      for (const event of events) await scheduleErasure(trx, event, retentionDays)
    },
  }
}
