// The stream lock port: commands on one stream in different processes take turns, as commands
// inside one process already do (streamQueue.ts). The command runtime takes it only for streams
// that have just seen a concurrent write from elsewhere, so an uncontended command pays nothing.
// Adapters: postgresStreamLock.ts (advisory locks in the read database, whichever event store is
// configured), and noStreamLock where there is no shared database (tests of the runtime alone).
import { StreamQueueFullError } from './streamQueue.js'

export type StreamLock = {
  /** Takes `stream`'s lock across processes; waits, bounded, for another holder. */
  acquire(stream: string): Promise<HeldStreamLock>
  close(): Promise<void>
}

export type HeldStreamLock = { release(): Promise<void> }

/** This process's hold of a stream's lock, kept across the commands queued behind each other. */
export type Hold = { lock: HeldStreamLock; commands: number }

/** Each process decides alone; the append's expected-revision check still keeps them honest. */
export const noStreamLock: StreamLock = {
  acquire: async () => ({ release: async () => undefined }),
  close: async () => undefined,
}

/** Runs `work` holding `stream`'s lock, released however the work ends. */
export async function withStreamLock<T>(lock: StreamLock, stream: string, work: () => Promise<T>): Promise<T> {
  const held = await lock.acquire(stream)
  try {
    return await work()
  } finally {
    await held.release()
  }
}

/** The lock stayed with another process past the wait limit: the stream is busy (503, retry). */
export class StreamLockTimeoutError extends StreamQueueFullError {
  override readonly name = 'StreamLockTimeoutError'
}
