// Latency samples in a preallocated buffer (bounded), and percentiles over them.

export type LatencySummary = { count: number; p50Ms: number; p99Ms: number; maxMs: number }

export class LatencySamples {
  private readonly values: Float64Array
  private size = 0
  /** Samples offered after the buffer filled up; they are counted but not kept. */
  dropped = 0

  constructor(capacity: number) {
    this.values = new Float64Array(capacity)
  }

  add(ms: number): void {
    if (this.size < this.values.length) this.values[this.size++] = ms
    else this.dropped += 1
  }

  summary(): LatencySummary {
    const sorted = this.values.slice(0, this.size).sort()
    const at = (q: number) => (this.size === 0 ? Number.NaN : sorted[Math.min(this.size - 1, Math.ceil(q * this.size) - 1)]!)
    return { count: this.size, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: this.size === 0 ? Number.NaN : sorted[this.size - 1]! }
  }
}
