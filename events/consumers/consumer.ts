// What a consumer is: a name (its checkpoint), the event types it handles, and its effect: a batch
// of events applied inside the transaction the runtime gives it, which also moves its checkpoint;
// or, for effects outside this database that are idempotent by themselves (workflows' commands,
// with ids derived from the causing event), a step run just before that transaction.
import type { Kysely } from 'kysely'
import type { RecordedEvent } from '../store/port.js'

export type Consumer<DB> = {
  /** Its checkpoint's name in consumer_checkpoints. */
  name: string
  /** Event types it handles; omitted, it sees every event (and every batch writes its checkpoint). */
  handles?: ReadonlySet<string>
  /**
   * Applies events past its checkpoint that it handles and no operator skipped, in commit order,
   * with their data parsed and upcast (an unregistered type arrives as stored). Never empty. Applies
   * the same events to `prepare`.
   */
  apply?(trx: Kysely<DB>, events: RecordedEvent[]): Promise<void>
  /**
   * Runs before the batch transaction, on the events past the stored checkpoint, so no transaction
   * stays open meanwhile (an open writing transaction holds back every $all reader). Must be
   * idempotent: a crash before the checkpoint commits, or a replay, runs it again on the same events.
   */
  prepare?(events: RecordedEvent[]): Promise<void>
}

export const consumerHandles = <DB>(consumer: Consumer<DB>, type: string): boolean => consumer.handles?.has(type) ?? true
