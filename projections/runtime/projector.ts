// What a projector is: the event types it handles and how events change its tables.
import type { Kysely } from 'kysely'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { RecordedEvent } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'

/** What a projector works with besides its tables: the protection that seals the sensitive fields it stores. */
export type ProjectionContext = { protection: DataProtection }

export type Projector = {
  name: string
  /** Tables this projector owns; a rebuild recreates exactly these. */
  tables: readonly (keyof ReadDatabase)[]
  handles: ReadonlySet<string>
  /** Applies one event inside the batch's transaction; `db` may be scoped to a rebuild schema. */
  apply(db: Kysely<ReadDatabase>, event: RecordedEvent, ctx: ProjectionContext): Promise<void>
  /** Optional: applies several handled events at once (fewer statements); same result as `apply` in order. */
  applyMany?(db: Kysely<ReadDatabase>, events: RecordedEvent[], ctx: ProjectionContext): Promise<void>
}

export async function applyEvents(
  projector: Projector,
  db: Kysely<ReadDatabase>,
  events: RecordedEvent[],
  ctx: ProjectionContext,
): Promise<void> {
  if (events.length === 0) return
  if (projector.applyMany) return projector.applyMany(db, events, ctx)
  for (const event of events) await projector.apply(db, event, ctx)
}

/** A projector as a consumer of the consumer runtime: its checkpoint is named after it. */
export function projectorConsumer(projector: Projector, ctx: ProjectionContext): Consumer<ReadDatabase> {
  return { name: projector.name, handles: projector.handles, apply: (trx, events) => applyEvents(projector, trx, events, ctx) }
}
