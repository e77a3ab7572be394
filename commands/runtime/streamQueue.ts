// Commands on one stream, inside one process, run one after another: a hot stream (an endpoint
// updated by many requests at once, a balance paying out many transfers) is decided in turn
// instead of every writer racing to a WrongExpectedVersion and a retry. Other processes are
// still kept honest by the expected-revision check in the append.

export const STREAM_QUEUE_LIMITS = {
  /** Commands waiting on one stream; past it a command is refused rather than queued forever. */
  maxWaitingPerStream: 10_000,
} as const

/** The stream's queue is full: the caller is told to retry later (503). */
export class StreamQueueFullError extends Error {
  override readonly name: string = 'StreamQueueFullError'
  constructor(readonly stream: string) {
    super(`Too many commands waiting on ${stream}`)
  }
}

export type StreamQueue = {
  run<T>(stream: string, work: () => Promise<T>): Promise<T>
  /** Commands running or waiting on `stream` (the running one included). */
  waiting(stream: string): number
  /** Streams with work running or waiting (for tests and diagnostics). */
  busyStreams(): number
}

export function createStreamQueue(): StreamQueue {
  const tails = new Map<string, { tail: Promise<unknown>; waiting: number }>()
  return {
    run(stream, work) {
      const entry = tails.get(stream) ?? { tail: Promise.resolve(), waiting: 0 }
      if (entry.waiting >= STREAM_QUEUE_LIMITS.maxWaitingPerStream) return Promise.reject(new StreamQueueFullError(stream))
      entry.waiting++
      // Runs after the previous command on the stream settles, whether it succeeded or not.
      const result = entry.tail.then(work, work)
      const tail = result
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => {
          entry.waiting--
          if (entry.waiting === 0 && tails.get(stream) === entry) tails.delete(stream)
        })
      entry.tail = tail
      tails.set(stream, entry)
      return result
    },
    waiting: (stream) => tails.get(stream)?.waiting ?? 0,
    busyStreams: () => tails.size,
  }
}
