// What a projector is: the event types it handles and how one event changes its tables.
import type { Kysely } from 'kysely'
import type { RecordedEvent } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'

export type Projector = {
  name: string
  /** Tables this projector owns; a rebuild recreates exactly these. */
  tables: readonly (keyof ReadDatabase)[]
  handles: ReadonlySet<string>
  /** Applies one event inside the batch's transaction; `db` may be scoped to a rebuild schema. */
  apply(db: Kysely<ReadDatabase>, event: RecordedEvent): Promise<void>
}
