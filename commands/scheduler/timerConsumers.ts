// The consumers that put rows on the timer table. They run in the workflows' group of the consumer
// runtime (server/runtime.ts), each scheduling in the same transaction as its checkpoint.
import type { Consumer } from '../../events/consumers/consumer.js'
import { verificationExpiryScheduling } from '../customers/verificationExpiry.js'
import type { SchedulerDatabase } from './schema.js'

export const timerConsumers: readonly Consumer<SchedulerDatabase>[] = [verificationExpiryScheduling]
