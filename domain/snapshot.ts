// A snapshot codec: how an aggregate that opts in writes its state as JSON beside its stream, so a
// load folds only the events after it (commands/runtime/ reads and takes them; issue 12 point 10).
// Pure: the codec only translates, the runtime decides when to read and take.

/** What JSON can hold, as JSON.stringify writes it and JSON.parse reads it back. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * Declared by an aggregate's decider to opt in to snapshots. A snapshot is a cache: it is always
 * rebuilt from the events, never the truth, so a codec change only needs a new `version` (rows of
 * other versions are ignored and replaced).
 *
 * Data protection: the state is stored as `encode` returns it, in plain JSON in the read database.
 * An aggregate whose state holds sensitive fields (issue 11's `sensitive(...)`: names, tax ids,
 * account numbers, secrets) must not opt in unless its codec seals them; the event codec's sealing
 * does not reach snapshots.
 *
 * Idempotency: a command with a `commandId` is found on the stream only among the events after the
 * snapshot. A snapshotted aggregate's decider must itself refuse or ignore an older repeated
 * command by its own keys (a hold id, a credit's cause), or keep those keys in its state.
 */
export type SnapshotCodec<State> = {
  /** Bumped whenever `encode`'s output changes shape: snapshots of another version are ignored. */
  version: number
  /** A new snapshot is taken once the stream is this many events past the last one. */
  everyEvents: number
  /** The state as JSON; undefined: this state is not kept as a snapshot (it holds what must not be stored in clear). */
  encode(state: State): JsonValue | undefined
  /** Validates (zod) and rebuilds the state; throws on anything it does not recognise. */
  decode(json: unknown): State
}
