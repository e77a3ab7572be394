// When a failed scheduled command is tried again: exponential back-off, capped.
import type { SchedulerLimits } from './limits.js'

/** The wait after the `attempts`-th failure (1-based): base, 2 × base, 4 × base, ... up to the cap. */
export function retryDelayMs(attempts: number, limits: Pick<SchedulerLimits, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  const doublings = Math.max(0, Math.min(attempts - 1, 52))
  return Math.min(limits.backoffBaseMs * 2 ** doublings, limits.backoffMaxMs)
}
