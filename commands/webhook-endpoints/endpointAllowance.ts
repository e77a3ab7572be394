// Whether an organization may create another webhook endpoint (WEBHOOK_ENDPOINTS_PER_ORGANIZATION).
// The count comes from the read model; far from the limit one read serves an organization for
// a second (plus what this process created since), so creation costs no extra round trip under
// load; within `margin` of the limit every creation reads it again. Other processes' creations
// in that second are not seen, nor creations still in flight (not yet projected): the limit may
// be passed by those, far below the fan-out cap (1 000) it guards.

export const ENDPOINT_ALLOWANCE_LIMITS = {
  /** How long one read of an organization's count is trusted. */
  ttlMs: 1_000,
  /** Within this many of the limit, every creation reads the count again. */
  margin: 100,
  /** Organizations remembered; past this the oldest is forgotten (and read again when needed). */
  maxOrganizations: 10_000,
} as const

export type EndpointAllowance = { hasRoom(organizationId: string): Promise<boolean> }

export function createEndpointAllowance(deps: { count: (organizationId: string) => Promise<number>; max: number }): EndpointAllowance {
  const known = new Map<string, { count: number; readAt: number }>()
  return {
    async hasRoom(organizationId) {
      const now = Date.now()
      let entry = known.get(organizationId)
      if (!entry || now - entry.readAt >= ENDPOINT_ALLOWANCE_LIMITS.ttlMs || entry.count >= deps.max - ENDPOINT_ALLOWANCE_LIMITS.margin) {
        entry = { count: await deps.count(organizationId), readAt: now }
        known.delete(organizationId)
        if (known.size >= ENDPOINT_ALLOWANCE_LIMITS.maxOrganizations) known.delete(known.keys().next().value!)
        known.set(organizationId, entry)
      }
      if (entry.count >= deps.max) return false
      // Counted as created at once: a burst from this process sees its own creations.
      entry.count++
      return true
    },
  }
}
