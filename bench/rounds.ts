// Interleaved rounds as one result. Several targets measured in turn, round after round, so that
// other work on a shared machine (and its disk's fsync time, which the toys depend on most) weighs
// on each alike; each target's rounds are then read as one row.
import type { HttpBenchResult } from './autocannonRun.js'
import type { CpuShares } from './cpu.js'

export type RoundResult = HttpBenchResult & { cpu: CpuShares | undefined }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** One target's rounds: req/s over all rounds; p50, p99 and CPU shares the median of the rounds' (the higher of two). */
export function combineRounds(rounds: readonly RoundResult[]): RoundResult {
  if (rounds.length === 0) throw new RangeError('no rounds to combine')
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0)
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0)
  const statusCodes: Record<string, number> = {}
  for (const r of rounds) for (const [code, count] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  const cpus = rounds.map((r) => r.cpu).filter((c) => c !== undefined)
  return {
    connections: rounds[0]!.connections,
    seconds,
    requests,
    requestsPerSecond: requests / seconds,
    latency: {
      count: rounds.reduce((sum, r) => sum + r.latency.count, 0),
      p50Ms: median(rounds.map((r) => r.latency.p50Ms)),
      p99Ms: median(rounds.map((r) => r.latency.p99Ms)),
      maxMs: Math.max(...rounds.map((r) => r.latency.maxMs)),
    },
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    statusCodes,
    cpu:
      cpus.length === rounds.length
        ? {
            server: median(cpus.map((c) => c.server)),
            postgres: median(cpus.map((c) => c.postgres)),
            loadGenerator: median(cpus.map((c) => c.loadGenerator)),
            other: median(cpus.map((c) => c.other)),
          }
        : undefined,
  }
}
