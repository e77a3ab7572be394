// The verification-session expiry timer. Durable because it keeps no state of its own: each tick
// asks the read model for ACTIVE sessions past expiresAt and expires each through the customer
// aggregate, which ignores a session no longer due or active (a restart, a second process or a
// race with a submission cannot double-expire). Reads are also lazily expired (resource.ts).
import { customerDecider } from '../../domain/customer/decider.js'
import type { EventStore } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { handleCommand } from '../runtime/handleCommand.js'

export type DueSession = { organizationId: string; customerId: string; sessionId: string }

export type ExpiryDeps = {
  store: EventStore
  /** ACTIVE sessions with expiresAt <= now, oldest first, at most `limit`. */
  findDue: (now: Date, limit: number) => Promise<DueSession[]>
  onError?: (error: unknown) => void
}

export const EXPIRY_LIMITS = { batchSize: 100 } as const

/** One pass: expires up to one batch of due sessions; returns how many were expired. */
export async function expireDueSessions(deps: ExpiryDeps, now: Date = new Date()): Promise<number> {
  const due = await deps.findDue(now, EXPIRY_LIMITS.batchSize)
  let expired = 0
  for (const s of due) {
    const result = await handleCommand(deps.store, customerDecider, streams.customer(s.customerId),
      { type: 'ExpireVerificationSession', organizationId: s.organizationId, customerId: s.customerId, sessionId: s.sessionId, now: now.toISOString() },
      { organizationId: s.organizationId, requestId: `timer:${s.sessionId}`, actor: 'system:verification-expiry' })
    if (result.events.length > 0) expired++
  }
  return expired
}

/** Runs a pass every `intervalMs` (the next one starts after the last ends) until stopped. */
export function startVerificationExpiry(deps: ExpiryDeps & { intervalMs: number }): { stop: () => Promise<void> } {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  const tick = () => {
    running = expireDueSessions(deps).then(() => undefined, (error: unknown) => deps.onError?.(error)).finally(() => {
      if (!stopped) timer = setTimeout(tick, deps.intervalMs)
    })
  }
  timer = setTimeout(tick, deps.intervalMs)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
