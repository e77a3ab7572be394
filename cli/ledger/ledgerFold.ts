// The ledger recomputed from stored events, whatever aggregate stored them: every event whose data
// carries a `transaction` that parses as a ledger transaction is one movement. Keeps a sum per
// ledger account and currency, overall and per organization (the event's), and, for the two
// accounts where a transfer's money waits (clearing and suspense), a sum per transfer: its
// transaction's id names it (domain/transfer/moneyInTransit.ts). Memory grows with accounts,
// organizations and transfers with money waiting, never with history. Records the first transaction
// that does not sum to zero per currency (or has a zero posting), and the first that is malformed,
// names no organization, or moves transit money without naming its transfer.
import { type LedgerTransaction, ledgerTransactionSchema, sumsByCurrency } from '../../domain/ledger/index.js'
import { transferIdIn } from '../../domain/transfer/moneyInTransit.js'
import type { Position, RecordedEvent } from '../../events/store/port.js'

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

/** A posting to clearing or suspense whose transaction names no transfer, or a transaction whose event names no organization. */
export type UnattributedTransaction = {
  kind: 'unattributed_transaction'
  eventId: string
  stream: string
  transactionId: string
  missing: 'organization' | 'transfer'
}

/** The ledger accounts where a transfer's (or an FX trade's) money waits, each posting attributed to its transfer or trade. */
export const TRANSIT_ACCOUNTS = ['clearing', 'suspense', 'fx_clearing'] as const
export type TransitAccount = (typeof TRANSIT_ACCOUNTS)[number]
const isTransit = (ledgerAccount: string): ledgerAccount is TransitAccount =>
  (TRANSIT_ACCOUNTS as readonly string[]).includes(ledgerAccount)

/** One transfer's money in clearing and suspense, and the last event that moved it. */
export type TransferTransit = { organizationId: string; sums: Map<string, bigint>; last: { position: Position; type: string } | undefined }

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

const addTo = (sums: Map<string, bigint>, key: string, amount: bigint) => sums.set(key, (sums.get(key) ?? 0n) + amount)

type FoldedEvent = Pick<RecordedEvent, 'id' | 'stream' | 'type' | 'data'> & Partial<Pick<RecordedEvent, 'metadata' | 'position'>>

export class LedgerFold {
  readonly sums = new Map<string, bigint>()
  /** Per organization, its own sums (every transaction is one organization's: its event's). */
  readonly byOrganization = new Map<string, Map<string, bigint>>()
  /** Per transfer with money that passed through clearing or suspense. */
  readonly transit = new Map<string, TransferTransit>()
  events = 0
  transactions = 0
  firstUnbalanced: UnbalancedTransaction | undefined
  firstMalformed: MalformedTransaction | undefined
  firstUnattributed: UnattributedTransaction | undefined

  add(event: FoldedEvent): void {
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
    const organizationId = event.metadata?.organizationId
    const unattributed = (missing: UnattributedTransaction['missing']) =>
      (this.firstUnattributed ??= {
        kind: 'unattributed_transaction',
        eventId: event.id,
        stream: event.stream,
        transactionId: tx.id,
        missing,
      })
    if (event.metadata !== undefined && !organizationId) unattributed('organization')
    const own = organizationId ? (this.byOrganization.get(organizationId) ?? new Map<string, bigint>()) : undefined
    if (organizationId && own) this.byOrganization.set(organizationId, own)
    const transferId = transferIdIn(tx.id)
    // Folded even when unbalanced: the balances below then show where the money went.
    for (const p of tx.postings) {
      const key = sumKey(p.ledgerAccount, p.currency)
      const amount = BigInt(p.amountMinor)
      addTo(this.sums, key, amount)
      if (own) addTo(own, key, amount)
      if (!isTransit(p.ledgerAccount)) continue
      if (!transferId) {
        unattributed('transfer')
        continue
      }
      const waiting = this.transit.get(transferId) ?? { organizationId: organizationId ?? '', sums: new Map(), last: undefined }
      addTo(waiting.sums, key, amount)
      if (event.position !== undefined) waiting.last = { position: event.position, type: event.type }
      this.transit.set(transferId, waiting)
    }
  }

  balance(ledgerAccount: string, currency: string): bigint {
    return this.sums.get(sumKey(ledgerAccount, currency)) ?? 0n
  }

  /** Transfers with money still in clearing or suspense (a non-zero sum in either). */
  *waiting(): Iterable<[string, TransferTransit]> {
    for (const entry of this.transit) if ([...entry[1].sums.values()].some((amount) => amount !== 0n)) yield entry
  }
}
