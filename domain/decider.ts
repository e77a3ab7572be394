// The shape of every aggregate's logic: pure functions, no I/O (Emmett's Decider).
import type { SnapshotCodec } from './snapshot.js'

export type Decider<State, Command, Event> = {
  initialState: () => State
  evolve: (state: State, event: Event) => State
  /** Returns the events a command produces, or throws a DomainError. */
  decide: (command: Command, state: State) => Event[]
  /** Opts the aggregate in to snapshots of its state (snapshot.ts); without it, every load folds the whole stream. */
  snapshot?: SnapshotCodec<State>
}

/** What loading a stream needs of a decider (never decide, so any command type will do). */
export type Evolver<State, Event> = Pick<Decider<State, never, Event>, 'initialState' | 'evolve' | 'snapshot'>

/** Domain events as deciders see them: a type name and JSON data. */
export type DomainEvent<Type extends string = string, Data extends Record<string, unknown> = Record<string, unknown>> = {
  type: Type
  data: Data
}
