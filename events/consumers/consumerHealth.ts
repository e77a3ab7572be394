// What /health says of each consumer group, in one statement (the health check's one round trip,
// which also proves the database answers): failing since when and after how many attempts
// (consumer_failures), and how many dead letters it holds on how many streams (consumer_parked).
import { type QueryExecutorProvider, sql } from 'kysely'

export type GroupHealth = {
  failure: { failingSince: Date; attempts: number } | undefined
  parked: { letters: number; streams: number } | undefined
}

type Row = {
  kind: 'failure' | 'parked'
  group: string
  failing_since: Date | null
  attempts: number | null
  letters: number
  streams: number
}

/** By group name; a group with neither a failure nor a letter is absent. */
export async function readGroupHealth(db: QueryExecutorProvider): Promise<Map<string, GroupHealth>> {
  const { rows } = await sql<Row>`
    SELECT 'failure' AS kind, consumer AS "group", failing_since, attempts, 0 AS letters, 0 AS streams FROM consumer_failures
    UNION ALL
    SELECT 'parked', consumer_group, NULL, NULL, count(*)::integer, count(DISTINCT stream)::integer
    FROM consumer_parked GROUP BY consumer_group`.execute(db)
  const health = new Map<string, GroupHealth>()
  for (const row of rows) {
    const entry = health.get(row.group) ?? { failure: undefined, parked: undefined }
    if (row.kind === 'failure') entry.failure = { failingSince: new Date(row.failing_since!), attempts: row.attempts ?? 0 }
    else entry.parked = { letters: row.letters, streams: row.streams }
    health.set(row.group, entry)
  }
  return health
}
