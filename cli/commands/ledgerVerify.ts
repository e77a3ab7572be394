// `ledger verify [--json] [--sample <n|all>]`: proves the ledger from the stored events (cli/ledger/
// verifyLedger.ts): every transaction sums to zero per currency (so each organization's money sums to
// zero), money in clearing and suspense belongs to a transfer in flight or holding it, every balance
// equals the sum of its postings (read model and, for a sample of accounts, the account aggregate).
// Prints the totals per currency and per system account, overall and per organization, or names the
// first discrepancy and exits 1. Plain lines for a
// person by default; one JSON document with --json. Reads only, beside a running server, and records
// its outcome (ledger_verifications) for /metrics.
import { parseArgs } from 'node:util'
import { formatMajor } from '../../domain/shared/money/index.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { type CurrencyTotals, LEDGER_VERIFY_LIMITS, type LedgerReport, verifyLedger } from '../ledger/verifyLedger.js'
import { CliError } from '../output.js'
import { recordLedgerVerification } from '../../server/observability/ledgerVerifications.js'

const SAMPLE_MAX = 1_000_000

const major = (currency: string, minor: string) => `${formatMajor({ currency, amountMinor: BigInt(minor) })} ${currency}`

function totalsLine(indent: string, t: CurrencyTotals): string {
  const m = (minor: string) => major(t.currency, minor)
  return (
    `${indent}${t.currency}: sum ${m(t.sum)}; world ${m(t.world)}, clearing ${m(t.clearing)}, suspense ${m(t.suspense)}, ` +
    `fees ${m(t.fees)}, credit_line ${m(t.credit_line)}, mint ${m(t.mint)}; balance accounts available ` +
    `${m(t.balanceAccountsAvailable)}, committed ${m(t.balanceAccountsCommitted)}`
  )
}

function lines(report: LedgerReport): string[] {
  const head = report.consistent ? 'ledger verified' : 'LEDGER DISCREPANCY'
  return [
    `${head} through position ${report.checkedThrough || '(start)'}: ${report.events} events, ${report.transactions} transactions, ` +
      `${report.balanceRowsCompared} balance rows and ${report.aggregatesCompared} account aggregates compared; ` +
      `${report.transfersInFlight} transfers with money in flight, ${report.transfersHeld} holding money in suspense`,
    ...report.totals.map((t) => totalsLine('  ', t)),
    ...report.organizations.flatMap((o) => [`  ${o.organizationId}:`, ...o.totals.map((t) => totalsLine('    ', t))]),
    ...(report.discrepancy ? [`  first discrepancy: ${JSON.stringify(report.discrepancy)}`] : []),
  ]
}

export const ledgerVerify: CliCommand = {
  words: ['ledger', 'verify'],
  usage:
    `ledger verify [--json] [--sample <1-${SAMPLE_MAX}|all>]   ` +
    `(accounts replayed through their aggregate; default ${LEDGER_VERIFY_LIMITS.defaultSample})`,
  summary:
    'prove the ledger: every transaction sums to zero (per organization too), clearing and suspense are explained by transfers, ' +
    'every balance equals its postings; totals, or the first discrepancy',
  parse(argv) {
    const { values } = parseOrUsage(ledgerVerify, () =>
      parseArgs({ args: argv, options: { json: { type: 'boolean' }, sample: { type: 'string' } }, strict: true, allowPositionals: false }),
    )
    const sample =
      values.sample === undefined || values.sample === 'all' ? (values.sample ?? LEDGER_VERIFY_LIMITS.defaultSample) : Number(values.sample)
    if (sample !== 'all' && (!Number.isInteger(sample) || sample < 1 || sample > SAMPLE_MAX))
      throw usageError(ledgerVerify, `--sample must be an integer from 1 to ${SAMPLE_MAX}, or all`)
    return async ({ runtime, out, log }) => {
      // Fresh read models first when this process can bring them forward (beside a server, its batches take turns).
      try {
        await runtime.runner.catchUp()
      } catch (error) {
        log.warn({ err: error }, 'projections could not catch up; verifying at their checkpoint')
      }
      const startedMs = Date.now()
      const report = await verifyLedger({ store: runtime.store, db: runtime.db, mode: runtime.projectionMode }, { sample })
      // Recorded for /metrics (ledger_verify_*), the discrepancy by its kind only: its details stay with the operator.
      await recordLedgerVerification(runtime.db, {
        consistent: report.consistent,
        events: report.events,
        checkedThrough: report.checkedThrough,
        durationMs: Date.now() - startedMs,
        discrepancyKind: report.discrepancy?.kind ?? null,
      })
      if (values.json) await out.document(report)
      else for (const line of lines(report)) await out.text(line)
      if (report.discrepancy) {
        const d = report.discrepancy
        throw new CliError('ledger_discrepancy', `first discrepancy: ${d.kind}`, { discrepancy: d })
      }
    }
  },
}
