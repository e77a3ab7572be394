// One turn of this process on a stream, and the stream lock across processes: a stream that has
// just seen a concurrent write from another process (or that is hot here) is decided under its
// stream lock, held across the commands queued behind each other and handed over after a share.
import type { DomainEvent } from '../../domain/decider.js'
import { WrongExpectedVersionError } from '../../events/store/port.js'
import type { BatchEntry } from './commandBatch.js'
import { COMMAND_LIMITS } from './commandLimits.js'
import { decideAndAppend } from './decideAndAppend.js'
import type { RuntimeState } from './runtimeState.js'
import { type Hold, noStreamLock } from './streamLock.js'

function isContended(runtime: RuntimeState, stream: string): boolean {
  const until = runtime.contendedUntil.get(stream)
  if (until === undefined) return false
  if (until > Date.now()) return true
  runtime.contendedUntil.delete(stream)
  return false
}

function markContended(runtime: RuntimeState, stream: string): void {
  const contended = runtime.contendedUntil
  contended.delete(stream)
  if (contended.size >= COMMAND_LIMITS.maxContendedStreams) contended.delete(contended.keys().next().value!)
  contended.set(stream, Date.now() + COMMAND_LIMITS.contendedForMs)
}

/** One turn on a stream: decide and append `entries`, under the stream lock when the stream is contended across processes. */
export async function runTurn<State, Command, Event extends DomainEvent>(
  runtime: RuntimeState,
  stream: string,
  entries: BatchEntry<State, Command, Event>[],
): Promise<void> {
  const { queue, lock } = runtime
  const attempt = (hold: Hold | undefined, attempts: number, lockFree = false) =>
    decideAndAppend({ runtime, stream, entries, hold, attempts, lockFree })
  if (lock === noStreamLock) return attempt(undefined, COMMAND_LIMITS.maxAttempts)
  // A hold this process keeps for the commands queued here counts as contended, so it is released.
  // Commands queued behind this one make the stream hot here: take the lock, so another process's
  // lock holder is never outrun by a stream of lock-free appends from this one.
  if (!runtime.holds.has(stream) && !isContended(runtime, stream) && queue.waiting(stream) <= 1) {
    // Uncontended and alone: one try without the lock, as fast as a single process.
    try {
      return await attempt(undefined, 1, true)
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error
    }
  }
  markContended(runtime, stream)
  // Commands here run one at a time per stream (the queue), so the hold needs no lock of its own.
  let hold = runtime.holds.get(stream)
  if (!hold) {
    hold = { lock: await lock.acquire(stream), commands: 0 }
    runtime.holds.set(stream, hold)
  }
  hold.commands++
  return attempt(hold, COMMAND_LIMITS.maxAttemptsUnderLock)
}

/**
 * After each command's turn (a batch's commands included, whose turns only hand back their
 * answers): the hold of the stream lock is released when nobody waits behind, or when it has
 * served its share, so the other processes get their turn.
 */
export async function releaseHoldIfDone(runtime: RuntimeState, stream: string): Promise<void> {
  const hold = runtime.holds.get(stream)
  if (!hold) return
  if (runtime.queue.waiting(stream) <= 1 || hold.commands >= COMMAND_LIMITS.maxCommandsPerLockHold) {
    runtime.holds.delete(stream)
    await hold.lock.release()
  }
}
