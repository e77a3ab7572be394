// A bounded cache of answers that expire: the FX reads serve one answer per key for about 30
// seconds (spec: Limits). Oldest entries go first when full; time comes from the app's clock.
export type ExpiringCache<V> = {
  get(key: string, nowMs: number): { value: V; expiresAtMs: number } | undefined
  set(key: string, value: V, nowMs: number): { value: V; expiresAtMs: number }
}

export function expiringCache<V>(options: { ttlMs: number; maxEntries: number }): ExpiringCache<V> {
  const entries = new Map<string, { value: V; expiresAtMs: number }>()
  return {
    get(key, nowMs) {
      const hit = entries.get(key)
      if (hit === undefined) return undefined
      if (hit.expiresAtMs > nowMs) return hit
      entries.delete(key)
      return undefined
    },
    set(key, value, nowMs) {
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!)
      const entry = { value, expiresAtMs: nowMs + options.ttlMs }
      entries.set(key, entry)
      return entry
    },
  }
}
