// The command runtime's bounds: retries, how much one load folds, and what a process remembers
// about streams (contention, kept states, lock holds).
export const COMMAND_LIMITS = {
  maxAttempts: 5,
  /**
   * Tries of a command that holds the stream lock: its conflicts can only come from other processes'
   * lock-free tries (one per command of theirs, each then sees this one's writes and takes the
   * lock), so it outlasts them rather than failing after five.
   */
  maxAttemptsUnderLock: 50,
  /**
   * Most events one load folds: a whole stream, or the events after its snapshot (or after the
   * state this process kept). Past it the aggregate needs a snapshot codec (domain/snapshot.ts),
   * or, when it has one, `snapshots rebuild` (its snapshot was lost or is of an older version).
   */
  maxEventsPerLoad: 100_000,
  /** After a concurrent write from another process, the stream's commands take the stream lock this long. */
  contendedForMs: 2_000,
  /** Streams remembered as contended at once; the oldest is forgotten past it. */
  maxContendedStreams: 10_000,
  /**
   * Commands of this process decided in one hold of a stream's lock while more wait here: fewer
   * hand-overs between processes, and past it the other processes get their turn.
   */
  maxCommandsPerLockHold: 32,
  /**
   * Streams whose last known state this process keeps after their commands are done: the next
   * command on one reads only the events after it (a customer saving its data again, say).
   */
  maxKeptStates: 2_000,
} as const
