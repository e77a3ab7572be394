// The ledger recomputed from stored events, whatever aggregate stored them: every event whose data
// carries a `transaction` that parses as a ledger transaction is one movement. Keeps only a sum per
// ledger account and currency (memory grows with the number of accounts, never with history), and
// the first transaction that does not sum to zero per currency (or has a zero posting).
import { type LedgerTransaction, ledgerTransactionSchema, sumsByCurrency } from '../../domain/ledger/index.js'
import type { RecordedEvent } from '../../events/store/port.js'

export type UnbalancedTransaction = {
  kind: 'unbalanced_transaction'
  eventId: string
  stream: string
  eventType: string
  transactionId: string
  /** Per currency, what the postings sum to (minor units; "0" for a balanced currency). */
  sums: Record<string, string>
  zeroPosting: boolean
}

export type MalformedTransaction = { kind: 'malformed_transaction'; eventId: string; stream: string; eventType: string; problem: string }

/** `<ledgerAccount>|<currency>` */
export const sumKey = (ledgerAccount: string, currency: string) => `${ledgerAccount}|${currency}`
export const splitKey = (key: string) => {
  const bar = key.lastIndexOf('|')
  return { ledgerAccount: key.slice(0, bar), currency: key.slice(bar + 1) }
}

/** The ledger transaction an event carries: none, one, or something claiming to be one that is not. */
export function transactionOf(data: Record<string, unknown>): { tx?: LedgerTransaction; problem?: string } {
  const raw = data.transaction
  // Another aggregate's `transaction` field with another meaning is no movement; one with postings claims to be.
  if (typeof raw !== 'object' || raw === null || !('postings' in raw)) return {}
  const parsed = ledgerTransactionSchema.safeParse(raw)
  if (parsed.success) return { tx: parsed.data }
  return { problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }
}

export class LedgerFold {
  readonly sums = new Map<string, bigint>()
  events = 0
  transactions = 0
  firstUnbalanced: UnbalancedTransaction | undefined
  firstMalformed: MalformedTransaction | undefined

  add(event: Pick<RecordedEvent, 'id' | 'stream' | 'type' | 'data'>): void {
    this.events++
    const { tx, problem } = transactionOf(event.data)
    if (problem !== undefined) {
      this.firstMalformed ??= { kind: 'malformed_transaction', eventId: event.id, stream: event.stream, eventType: event.type, problem }
      return
    }
    if (!tx) return
    this.transactions++
    const sums = sumsByCurrency(tx.postings)
    const zeroPosting = tx.postings.some((p) => BigInt(p.amountMinor) === 0n)
    if (!this.firstUnbalanced && (zeroPosting || [...sums.values()].some((s) => s !== 0n))) {
      this.firstUnbalanced = {
        kind: 'unbalanced_transaction',
        eventId: event.id,
        stream: event.stream,
        eventType: event.type,
        transactionId: tx.id,
        sums: Object.fromEntries([...sums].map(([c, s]) => [c, s.toString()])),
        zeroPosting,
      }
    }
    // Folded even when unbalanced: the balances below then show where the money went.
    for (const p of tx.postings) {
      const key = sumKey(p.ledgerAccount, p.currency)
      this.sums.set(key, (this.sums.get(key) ?? 0n) + BigInt(p.amountMinor))
    }
  }

  balance(ledgerAccount: string, currency: string): bigint {
    return this.sums.get(sumKey(ledgerAccount, currency)) ?? 0n
  }
}
