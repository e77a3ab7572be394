// The consumers that put rows on the timer table, run by the server's event consumer beside the
// projectors (each schedules in the same transaction as its checkpoint).
import type { Projector } from '../../projections/runtime/projector.js'
import { verificationExpiryScheduling } from '../customers/verificationExpiry.js'

export const timerConsumers: readonly Projector[] = [verificationExpiryScheduling]
