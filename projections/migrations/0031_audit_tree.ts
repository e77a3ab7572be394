// The Merkle tree over the event log (issue 29): the leaves in commit order (which event each is,
// and its organization, for an inclusion proof), every complete subtree's root (level 0: the leaf
// hashes) so a proof is a few lookups, the tree's right edge as the sealer left it, and the signed
// checkpoints. Not a projection: a rebuild of the read models leaves it alone (the tree is append-only).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_tree_leaves')
    .addColumn('leaf_index', 'bigint', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text')
    .addColumn('position', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('audit_tree_nodes')
    .addColumn('level', 'smallint', (c) => c.notNull())
    .addColumn('node_index', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_tree_nodes_pk', ['level', 'node_index'])
    .execute()
  await db.schema
    .createTable('audit_tree_frontier')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('subtrees', sql`bytea[]`, (c) => c.notNull())
    .addColumn('through_position', 'text', (c) => c.notNull())
    .execute()
  await sql`INSERT INTO audit_tree_frontier (id, size, subtrees, through_position) VALUES (1, 0, '{}', '')`.execute(db)
  await db.schema
    .createTable('audit_checkpoints')
    .addColumn('tree_size', 'bigint', (c) => c.primaryKey())
    .addColumn('root_hash', 'text', (c) => c.notNull())
    .addColumn('sealed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['audit_checkpoints', 'audit_tree_frontier', 'audit_tree_nodes', 'audit_tree_leaves'])
    await db.schema.dropTable(table).execute()
}
