// The figures of a long replay's progress report (pure): events per second over the last few reports,
// the total the events read so far point to given how far through the log they reached, and the time
// that leaves. The rate is a recent one, so a report follows a replay that speeds up or slows down.
export const PROGRESS_LIMITS = {
  /** Reports the rate is measured over (one a second: about the last ten seconds). */
  window: 10,
} as const

export type ProgressSample = { atMs: number; events: number }

export type ProgressEstimate = {
  eventsPerSecond: number
  /** Undefined until the log's share read so far is known. */
  estimatedTotal?: number
  percent?: number
  secondsLeft?: number
}

/** Keeps the newest `PROGRESS_LIMITS.window + 1` samples (the window's ends): a bounded list. */
export function addSample(samples: readonly ProgressSample[], sample: ProgressSample): ProgressSample[] {
  return [...samples, sample].slice(-(PROGRESS_LIMITS.window + 1))
}

/**
 * `share`: how far through the log the events read so far reached (0 to 1; positions.ts's logShare), or
 * undefined when not known. The total is never below what was read.
 */
export function estimateProgress(samples: readonly ProgressSample[], share: number | undefined): ProgressEstimate {
  const first = samples[0]
  const last = samples[samples.length - 1]
  if (!first || !last) return { eventsPerSecond: 0 }
  const seconds = (last.atMs - first.atMs) / 1000
  // Whole events a second, tenths of a percent and of a second: what a person or a script reads.
  const eventsPerSecond = seconds > 0 ? Math.round((last.events - first.events) / seconds) : 0
  if (share === undefined || share <= 0) return { eventsPerSecond }
  const estimatedTotal = Math.max(last.events, Math.round(last.events / share))
  const left = estimatedTotal - last.events
  return {
    eventsPerSecond,
    estimatedTotal,
    percent: Math.min(100, Math.round((1000 * last.events) / estimatedTotal) / 10),
    ...(eventsPerSecond > 0 ? { secondsLeft: Math.round((10 * left) / eventsPerSecond) / 10 } : {}),
  }
}
