// Consumer checkpoints (consumer_checkpoints, migration 0007): one row per consumer, its position
// in $all. The batch transaction moves it (applyBatch.ts); these are the reads and the writes
// outside a batch: create, read, lock for a swap, set after a rebuild, reset to replay.
import { type QueryExecutorProvider, sql } from 'kysely'
import { type Position, START } from '../store/port.js'

/** Any Kysely database or transaction: these statements name only the runtime's own tables. */
type SqlRunner = QueryExecutorProvider

export async function ensureCheckpoints(db: SqlRunner, names: readonly string[]): Promise<void> {
  if (names.length === 0) return
  await sql`INSERT INTO consumer_checkpoints (name, position, updated_at) SELECT unnest(${[...names]}::text[]), '', now()
    ON CONFLICT (name) DO NOTHING`.execute(db)
}

/** Every stored checkpoint, by name; a consumer that never ran has none (START). */
export async function readCheckpoints(db: SqlRunner): Promise<Map<string, Position>> {
  const { rows } = await sql<{ name: string; position: Position }>`SELECT name, position FROM consumer_checkpoints`.execute(db)
  return new Map(rows.map((r) => [r.name, r.position]))
}

/** Where each consumer stands and how many dead letters it has (deadLetters.ts), by name. */
export async function readCheckpointStates(db: SqlRunner): Promise<Map<string, { position: Position; parkedLetters: number }>> {
  const { rows } = await sql<{ name: string; position: Position; parked_letters: number }>`
    SELECT name, position, parked_letters FROM consumer_checkpoints`.execute(db)
  return new Map(rows.map((r) => [r.name, { position: r.position, parkedLetters: r.parked_letters }]))
}

/**
 * Each checkpoint with the time it was last written (updated_at): a batch writes it when it moves the
 * checkpoint, so a consumer that is behind and whose time grows old is stalled (consumerLag.ts).
 */
export async function readCheckpointTimes(db: SqlRunner): Promise<Map<string, { position: Position; updatedAt: Date }>> {
  const { rows } = await sql<{ name: string; position: Position; updated_at: Date }>`
    SELECT name, position, updated_at FROM consumer_checkpoints`.execute(db)
  return new Map(rows.map((r) => [r.name, { position: r.position, updatedAt: new Date(r.updated_at) }]))
}

export async function readCheckpoint(db: SqlRunner, name: string): Promise<Position> {
  return (await readCheckpoints(db)).get(name) ?? START
}

/** Locks the row inside `trx` (the consumer's batches wait) and returns where it stands. */
export async function lockCheckpoint(trx: SqlRunner, name: string): Promise<Position> {
  await ensureCheckpoints(trx, [name])
  const { rows } = await sql<{ position: Position }>`SELECT position FROM consumer_checkpoints WHERE name = ${name} FOR UPDATE`.execute(trx)
  return rows[0]?.position ?? START
}

export async function setCheckpoint(db: SqlRunner, name: string, position: Position): Promise<void> {
  await sql`UPDATE consumer_checkpoints SET position = ${position}, updated_at = now() WHERE name = ${name}`.execute(db)
}

/**
 * Back to position zero: the consumer replays everything on its next start. For consumers whose
 * effects are idempotent (workflows: their commands carry deterministic ids); a projector is
 * rebuilt into fresh tables instead (projections/runtime/rebuildProjection.ts).
 */
export async function resetCheckpoint(db: SqlRunner, name: string): Promise<void> {
  await ensureCheckpoints(db, [name])
  await setCheckpoint(db, name, START)
}
