// The version of a projection's tables kept aside by its last rebuild or rollback (issue 29): where the
// tables went (a schema of their own), and the $all position they hold, so `projections rollback` brings
// them back exactly (projections/runtime/keptVersions.ts). One row per projection: one version kept.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projection_versions')
    .addColumn('projection', 'text', (c) => c.primaryKey())
    .addColumn('kept_schema', 'text', (c) => c.notNull())
    .addColumn('kept_tables', sql`text[]`, (c) => c.notNull())
    // The last event the kept tables hold (inline: the head when they were moved aside; async: their checkpoint).
    .addColumn('kept_position', 'text', (c) => c.notNull())
    // Dead letters the kept version had (async only): events it never applied, which a rollback could not bring back.
    .addColumn('kept_dead_letters', 'integer', (c) => c.notNull().check(sql`kept_dead_letters >= 0`))
    .addColumn('kept_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // What put the live tables in place when these were moved aside.
    .addColumn('replaced_by', 'text', (c) => c.notNull().check(sql`replaced_by IN ('rebuild', 'rollback')`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('projection_versions').execute()
}
