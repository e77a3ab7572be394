// Verification sessions expire on the scheduler: when a session is created, a consumer of the
// VerificationSessionCreated event puts an ExpireVerificationSession command on the timer table
// for its expiresAt, in the same transaction as the consumer's checkpoint. So a process that dies
// right after the append loses nothing (the consumer resumes from its checkpoint), and a replay
// schedules nothing twice (the row id derives from the session id). The customer aggregate ignores
// a session no longer active when the timer fires. Reads are also lazily expired (resource.ts).
import { VerificationSessionCreated } from '../../domain/customer/events.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { Kysely } from 'kysely'
import type { Consumer } from '../../events/consumers/consumer.js'
import { scheduleCommand } from '../scheduler/scheduleCommand.js'
import type { SchedulerDatabase } from '../scheduler/schema.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'

/** The timer's id, and so the expiry command's commandId: one per session, forever. */
export const expiryTimerId = (sessionId: string) => `verification-session-expiry:${sessionId}`

/** Schedules the expiry of the session `event` created (a no-op when already scheduled). */
async function scheduleExpiry(db: Kysely<SchedulerDatabase>, event: RecordedEvent): Promise<void> {
  const session = VerificationSessionCreated.parse(event.data)
  const organizationId = organizationOfEvent(event)
  await scheduleCommand(db, {
    id: expiryTimerId(session.sessionId),
    organizationId,
    aggregate: 'customer',
    stream: streams.customer(session.customerId),
    command: { type: 'ExpireVerificationSession', organizationId, customerId: session.customerId, sessionId: session.sessionId },
    dueAt: new Date(session.expiresAt),
  })
}

/**
 * The consumer that schedules session expiries. It owns no tables (nothing to rebuild: the timer
 * table is the scheduler's), so it runs with the workflows (server/runtime.ts), not the projectors.
 */
export const verificationExpiryScheduling: Consumer<SchedulerDatabase> = {
  name: 'verification_expiry_timers',
  handles: new Set(['VerificationSessionCreated']),
  async apply(trx, events) {
    for (const event of events) await scheduleExpiry(trx, event)
  },
}
