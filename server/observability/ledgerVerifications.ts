// The outcomes of `ledger verify` (table ledger_verifications, migration 0030): the CLI records each
// run, /metrics reads the last. A scrape never runs the verification itself: it replays all of $all.
import type { Kysely } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'

export const LEDGER_VERIFICATION_LIMITS = {
  /** Runs kept; older ones are deleted as a new one is recorded. */
  keptRuns: 1_000,
} as const

export type LedgerVerification = {
  finishedAt: Date
  consistent: boolean
  events: number
  checkedThrough: string
  durationMs: number
  discrepancyKind: string | null
}

export async function recordLedgerVerification(db: Kysely<ReadDatabase>, run: Omit<LedgerVerification, 'finishedAt'>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('ledger_verifications')
      .values({
        consistent: run.consistent,
        events: String(run.events),
        checked_through: run.checkedThrough,
        duration_ms: run.durationMs,
        discrepancy_kind: run.discrepancyKind,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx
      .deleteFrom('ledger_verifications')
      .where('id', '<=', String(BigInt(id) - BigInt(LEDGER_VERIFICATION_LIMITS.keptRuns)))
      .execute()
  })
}

export async function latestLedgerVerification(db: Kysely<ReadDatabase>): Promise<LedgerVerification | undefined> {
  const row = await db.selectFrom('ledger_verifications').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (!row) return undefined
  return {
    finishedAt: new Date(row.finished_at),
    consistent: row.consistent,
    events: Number(row.events),
    checkedThrough: row.checked_through,
    durationMs: row.duration_ms,
    discrepancyKind: row.discrepancy_kind,
  }
}
