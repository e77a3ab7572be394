// The consumers that put rows on the timer table. They run in the workflows' group of the consumer
// runtime (server/runtime.ts), each scheduling in the same transaction as its checkpoint.
import type { Environment } from '../../domain/shared/environment.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import { externalWalletReviewScheduling } from '../external-wallets/reviewScheduling.js'
import { retentionErasureScheduling } from '../customers/retentionErasure.js'
import { verificationExpiryScheduling } from '../customers/verificationExpiry.js'
import type { SchedulerDatabase } from './schema.js'

/** What the timers depend on in the configuration. */
export type TimerSettings = { customerDataRetentionDays: number; environment: Environment }

export const timerConsumers = (settings: TimerSettings): readonly Consumer<SchedulerDatabase>[] => [
  verificationExpiryScheduling,
  retentionErasureScheduling(settings.customerDataRetentionDays),
  externalWalletReviewScheduling(settings.environment),
]
