// The consumers that put rows on the timer table. They run in the workflows' group of the consumer
// runtime (server/runtime.ts), each scheduling in the same transaction as its checkpoint.
import type { Consumer } from '../../events/consumers/consumer.js'
import { retentionErasureScheduling } from '../customers/retentionErasure.js'
import { verificationExpiryScheduling } from '../customers/verificationExpiry.js'
import type { SchedulerDatabase } from './schema.js'

/** What the timers depend on in the configuration. */
export type TimerSettings = { customerDataRetentionDays: number }

export const timerConsumers = (settings: TimerSettings): readonly Consumer<SchedulerDatabase>[] => [
  verificationExpiryScheduling,
  retentionErasureScheduling(settings.customerDataRetentionDays),
]
