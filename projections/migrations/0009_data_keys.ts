// Data protection (issue 11): one data key per subject, wrapped by a key-encryption key
// (events/protection/). Shredding clears the key and keeps the row: a shredded subject never gets
// a new key. Not a projection: never rebuilt.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_keys')
    .addColumn('subject', 'text', (c) => c.primaryKey().check(sql`length(subject) BETWEEN 1 AND 200`))
    .addColumn('kek_id', 'text')
    .addColumn('wrapped_key', 'bytea')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('shredded_at', 'timestamptz')
    .addColumn('shred_reason', 'text', (c) => c.check(sql`length(shred_reason) <= 500`))
    .addCheckConstraint('data_keys_key_or_shredded', sql`(shredded_at IS NULL) = (wrapped_key IS NOT NULL AND kek_id IS NOT NULL)`)
    .execute()
  // KEK rotation finds the keys still wrapped by an older KEK.
  await sql`CREATE INDEX data_keys_by_kek ON data_keys (kek_id) WHERE kek_id IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_keys').execute()
}
