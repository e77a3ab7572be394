// Accounts as the service holds them, in bulk, for the account list bench and its EXPLAIN report.
// Each account is its events (AccountOpened, and AccountClosed for some). Appending 100 000 of them
// through the store and projecting them took 80 to 100 s on the 2-core machine (20 000: 5 to 8 s of
// appends, 11.5 to 13 s of projection), so the bench writes the read model's rows directly, each
// made from its events by the account decider and resource the projector uses, 1 000 rows a
// statement, and the organization's count. appendSeedAccounts appends the same events. The mix:
// USD and stablecoin balance accounts, external bank accounts (USD, EUR, MXN) and external wallets
// (EVM, TRON), spread over many customers; some in review, some closed; a few the organization's own.
import { randomUUID } from 'node:crypto'
import type { Insertable, Kysely } from 'kysely'
import { sql } from 'kysely'
import type { AccountKind } from '../domain/account/accountKinds.js'
import { ACCOUNT_KINDS } from '../domain/account/accountKinds.js'
import { accountDecider } from '../domain/account/decider.js'
import type { AccountDetails, AccountEvent } from '../domain/account/events.js'
import { accountRow } from '../projections/accounts.js'
import { newId } from '../domain/shared/ids.js'
import type { PaymentRail } from '../domain/shared/paymentRails.js'
import { streams } from '../events/streams.js'
import type { EventStore, NewEvent } from '../events/store/port.js'
import type { AccountsTable, ReadDatabase } from '../projections/schema.js'

export const ACCOUNT_SEED_PLAN = {
  accounts: 100_000,
  customers: 10_000,
  appendConcurrency: 32,
  rowsPerInsert: 1_000,
  /** One account in this many is the organization's own (no customer). */
  organizationOwnedEvery: 50,
  /** One account in this many is closed. */
  closedEvery: 33,
  /** One external wallet in this many is still in review. */
  inReviewEvery: 7,
} as const

type Shape = {
  kind: AccountKind
  currencyCodes: string[]
  paymentRails: PaymentRail[]
  provider: string
  details: (i: number) => AccountDetails
}

const bank =
  (currency: string): Shape['details'] =>
  (i) => ({
    kind: 'EXTERNAL_BANK',
    accountOwnerName: `Owner ${i}`,
    accountOwnerType: 'INDIVIDUAL',
    bankName: 'Bench Bank',
    bankCountry: currency === 'USD' ? 'US' : currency === 'EUR' ? 'DE' : 'MX',
    currency,
    accountType: currency === 'USD' ? 'CHECKING' : null,
    accountNumber: String(100_000_000 + i),
    routingNumber: currency === 'USD' ? '021000021' : null,
    iban: null,
    bic: null,
    last4: String(100_000_000 + i).slice(-4),
  })
const wallet =
  (addressType: 'EVM' | 'TRON', currencies: string[]): Shape['details'] =>
  () => ({
    kind: 'EXTERNAL_WALLET',
    walletAddress: addressType === 'EVM' ? '0x52908400098527886E0F7030069857D2E4169EE7' : 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
    addressType,
    chains: [addressType === 'EVM' ? 'ETHEREUM' : 'TRON'],
    currencies,
    custodyType: 'SELF_HOSTED',
    isThirdParty: true,
    externalReference: null,
  })
const stablecoin =
  (addressType: 'SOLANA' | 'EVM', customer: boolean): Shape['details'] =>
  () => ({
    kind: 'STABLECOIN_BALANCE',
    chain: addressType === 'SOLANA' ? 'SOLANA' : 'ETHEREUM',
    addressType,
    walletAddress: addressType === 'SOLANA' ? 'So11111111111111111111111111111111111111112' : '0x52908400098527886E0F7030069857D2E4169EE7',
    walletType: customer ? 'CUSTOMER' : 'TREASURY',
  })

const usd: Shape = {
  kind: 'USD_BALANCE',
  currencyCodes: ['USD'],
  paymentRails: ['ACH', 'WIRE', 'BALANCE'],
  provider: 'INFINITE',
  details: () => ({ kind: 'USD_BALANCE' }),
}

/** Ten shapes, account i taking shape i % 10: 30% USD balances, 20% stablecoin, 30% external banks, 20% external wallets. */
function shapeOf(i: number, customer: boolean): Shape {
  const external = { provider: 'EXTERNAL' }
  switch (i % 10) {
    case 1:
      return {
        kind: 'STABLECOIN_BALANCE',
        currencyCodes: ['USDC'],
        paymentRails: ['BALANCE'],
        provider: 'INFINITE',
        details: stablecoin('SOLANA', customer),
      }
    case 2:
      return { kind: 'EXTERNAL_BANK', currencyCodes: ['USD'], paymentRails: ['ACH', 'WIRE'], ...external, details: bank('USD') }
    case 3:
      return {
        kind: 'EXTERNAL_WALLET',
        currencyCodes: ['USDT', 'USDC'],
        paymentRails: [],
        ...external,
        details: wallet('EVM', ['USDT', 'USDC']),
      }
    case 4:
      return { kind: 'EXTERNAL_BANK', currencyCodes: ['EUR'], paymentRails: ['SEPA', 'SWIFT'], ...external, details: bank('EUR') }
    case 5:
      return {
        kind: 'STABLECOIN_BALANCE',
        currencyCodes: ['USDT'],
        paymentRails: ['BALANCE'],
        provider: 'INFINITE',
        details: stablecoin('EVM', customer),
      }
    case 7:
      return { kind: 'EXTERNAL_WALLET', currencyCodes: ['USDT'], paymentRails: [], ...external, details: wallet('TRON', ['USDT']) }
    case 8:
      return { kind: 'EXTERNAL_BANK', currencyCodes: ['MXN'], paymentRails: ['SPEI'], ...external, details: bank('MXN') }
    default:
      return usd
  }
}

/** The ids of the bench's customers (their accounts only: no customer record is needed to list them). */
export const seedCustomerId = (n: number) => `cus_bench${String(n).padStart(22, '0')}`

/** Account i's events: opened (in review for some external wallets), then closed for some. */
export function seedAccountEvents(organizationId: string, i: number, customerId?: string): { stream: string; events: AccountEvent[] } {
  const P = ACCOUNT_SEED_PLAN
  const owned = customerId === undefined && i % P.organizationOwnedEvery === 0
  const customer = customerId ?? (owned ? null : seedCustomerId(i % P.customers))
  const shape = shapeOf(i, customer !== null)
  const kind = ACCOUNT_KINDS[shape.kind]
  const accountId = newId(kind.prefix)
  const at = new Date().toISOString()
  const holdsBalance = shape.kind === 'USD_BALANCE' || shape.kind === 'STABLECOIN_BALANCE'
  const opened: AccountEvent = {
    type: 'AccountOpened',
    data: {
      accountId,
      organizationId,
      customerId: customer,
      kind: shape.kind,
      type: kind.type,
      status: shape.kind === 'EXTERNAL_WALLET' && i % P.inReviewEvery === 0 ? 'IN_REVIEW' : 'ACTIVE',
      currencyCodes: shape.currencyCodes,
      paymentRails: shape.paymentRails,
      holdsBalance,
      balanceSourceEligible: shape.kind === 'USD_BALANCE',
      provider: shape.provider,
      counterpartyId: shape.kind === 'EXTERNAL_WALLET' ? `cp_bench${String(i % 20_000).padStart(22, '0')}` : null,
      metadata: { nickname: `Account ${i}`, tags: ['bench'] },
      details: shape.details(i),
      at,
    },
  }
  const closed: AccountEvent[] =
    customerId === undefined && i % P.closedEvery === 0
      ? [{ type: 'AccountClosed', data: { accountId, organizationId, reason: 'CLOSED_BY_CALLER', at } }]
      : []
  return { stream: streams.account(accountId), events: [opened, ...closed] }
}

/** Appends accounts `from` to `to` (exclusive) of the mix, `appendConcurrency` streams at a time. */
export async function appendSeedAccounts(store: EventStore, organizationId: string, from: number, to: number): Promise<void> {
  let next = from
  const worker = async () => {
    while (next < to) {
      const i = next++
      const { stream, events } = seedAccountEvents(organizationId, i)
      const metadata = { organizationId, actor: 'bench', requestId: `req_bench_account_${i}` }
      const stored: NewEvent[] = events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata }))
      await store.appendToStream(stream, stored, { expectedRevision: 'no_stream' })
    }
  }
  await Promise.all(Array.from({ length: ACCOUNT_SEED_PLAN.appendConcurrency }, worker))
}

/** The row the accounts projector holds for these events (the decider's evolve, the projector's row). */
function rowOf(events: AccountEvent[]): Insertable<AccountsTable> {
  const state = events.reduce(accountDecider.evolve, accountDecider.initialState())
  if (state.status === 'none') throw new Error('a seeded account has no state')
  return accountRow(state)
}

/**
 * Writes accounts `from` to `to` (exclusive) of the mix as read-model rows, `customerId` owning
 * all of them when given, and adds them to the organization's count; then VACUUM ANALYZE, as
 * autovacuum would after a load this size, and a CHECKPOINT (the load's writes out before measuring).
 */
export async function insertSeedAccounts(
  db: Kysely<ReadDatabase>,
  organizationId: string,
  from: number,
  to: number,
  customerId?: string,
): Promise<void> {
  for (let start = from; start < to; start += ACCOUNT_SEED_PLAN.rowsPerInsert) {
    const end = Math.min(to, start + ACCOUNT_SEED_PLAN.rowsPerInsert)
    const rows = Array.from({ length: end - start }, (_, k) => rowOf(seedAccountEvents(organizationId, start + k, customerId).events))
    await db.insertInto('accounts').values(rows).execute()
  }
  await db
    .insertInto('account_counts')
    .values({ organization_id: organizationId, accounts: String(to - from) })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ accounts: sql`account_counts.accounts + excluded.accounts` }))
    .execute()
  await sql`VACUUM ANALYZE accounts`.execute(db)
  await sql`CHECKPOINT`.execute(db)
}
