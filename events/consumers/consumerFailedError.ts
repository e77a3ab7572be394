// A consumer's own failure, told apart from the runtime's (the checkpoint statement, the dead-letter
// writes): which consumer of the group threw, and on which event when it was given one alone. The
// guard parks an event only for the consumer named here; a failure it cannot pin on one consumer is
// retried, never parked.
import type { RecordedEvent } from '../store/port.js'
import type { Consumer } from './consumer.js'

export class ConsumerFailedError extends Error {
  override readonly name = 'ConsumerFailedError'
  constructor(
    /** The consumer's checkpoint name. */
    readonly consumer: string,
    /** The event it failed on: known when it was handed that one event (else the batch's events are candidates). */
    readonly eventId: string | undefined,
    override readonly cause: unknown,
  ) {
    // The cause's own words, as a caller saw them before the wrapping (logs use describeFailure instead).
    super(`${consumer}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

/** Runs one consumer step (`apply` or `prepare`), naming the consumer (and the event, when alone) on failure. */
export async function asConsumer<DB>(consumer: Consumer<DB>, events: readonly RecordedEvent[], step: () => Promise<void>): Promise<void> {
  try {
    await step()
  } catch (error) {
    if (error instanceof ConsumerFailedError) throw error
    throw new ConsumerFailedError(consumer.name, events.length === 1 ? events[0]!.id : undefined, error)
  }
}
