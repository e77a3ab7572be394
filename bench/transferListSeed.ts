// Transfers as the service holds them, in bulk, for the transfer list bench and its EXPLAIN report.
// 1 000 000 transfers through the store and the projector would take the 2-core machine most of an
// hour (see accountListSeed.ts for 100 000 accounts), so the rows are written directly, each made
// from its events by the transfer decider's evolve and the projector's own row function
// (projections/transfers.ts `transferRow`), 2 000 rows a statement. The mix, in the main
// organization (90% of the rows; three others share the table): 10 000 customers, one of which
// (the "big" customer) sends one transfer in ten; 40% paid to another customer's account (the
// either-side filter), 30% to a counterparty, half with a unique clientReferenceId; statuses as a
// live platform holds them (70% COMPLETED, 10% PROCESSING, 8% PENDING, 5% FAILED, 3% CANCELLED,
// 2% IN_REVIEW, 1% DRAFT, 1% REVERSED), the seven caller flows in turn. Funded by balance holds:
// no remitter identity, so no row holds a sealed originator (reads of deposit-funded transfers
// also open one per row, with one key lookup per page).
import { type Kysely, sql } from 'kysely'
import { transferDecider } from '../domain/transfer/decider.js'
import type { TransferEvent } from '../domain/transfer/events.js'
import type { TransferFlow } from '../domain/transfer/route.js'
import type { TransferStatus } from '../domain/transfer/statuses.js'
import { newId } from '../domain/shared/ids.js'
import type { ReadDatabase } from '../projections/schema.js'
import { transferRow } from '../projections/transfers.js'

export const TRANSFER_SEED_PLAN = {
  transfers: 1_000_000,
  customers: 10_000,
  /** Transfers of the main organization: all but one in this many (those go to the others in turn). */
  otherOrganizationEvery: 10,
  otherOrganizations: 3,
  /** One transfer of the main organization in this many is the big customer's. */
  bigCustomerEvery: 10,
  rowsPerInsert: 2_000,
  /** Ids (and creation times) one millisecond apart from this instant, so they sort as the rows were made. */
  firstCreatedAtMs: Date.parse('2026-01-01T00:00:00.000Z'),
} as const

const FLOWS: readonly TransferFlow[] = [
  'INTERNAL',
  'FX',
  'FIAT_TO_FIAT',
  'FIAT_TO_CRYPTO',
  'CRYPTO_TO_FIAT',
  'CRYPTO_TO_CRYPTO',
  'FIAT_TO_CRYPTO_TO_FIAT',
]

/** Status by (13 i) % 100: the shares of the mix above, spread over every organization (13 is prime to 10). */
function statusOf(i: number): TransferStatus {
  const n = (i * 13) % 100
  if (n < 70) return 'COMPLETED'
  if (n < 80) return 'PROCESSING'
  if (n < 88) return 'PENDING'
  if (n < 93) return 'FAILED'
  if (n < 96) return 'CANCELLED'
  if (n < 98) return 'IN_REVIEW'
  return n === 98 ? 'DRAFT' : 'REVERSED'
}

export const seedTransferCustomerId = (n: number) => `cus_tbench${String(n).padStart(21, '0')}`
export const BIG_CUSTOMER = seedTransferCustomerId(TRANSFER_SEED_PLAN.customers)
export const seedClientReferenceId = (i: number) => `order-${i}`
export const otherOrganizationId = (mainOrganizationId: string, n: number) => `${mainOrganizationId}_other${n}`

/**
 * Customer rows for the ids the bench's lists filter by: a list's customerId must name a customer of
 * the organization (issue 24, D6), else it is a 404. Only their filter columns are read (the check
 * selects the id), so the state is an empty object, not a customer's sealed state.
 */
export async function insertSeedCustomers(db: Kysely<ReadDatabase>, organizationId: string, ids: readonly string[]): Promise<void> {
  await sql`INSERT INTO customers (id, organization_id, type, status, customer_name, created_at, updated_at, state)
    SELECT id, ${organizationId}, 'INDIVIDUAL', 'APPROVED', 'Bench customer', now(), now(), '{}'::jsonb
    FROM unnest(${[...ids]}::text[]) AS id`.execute(db)
}

/** The organization of transfer i. */
export function organizationOf(mainOrganizationId: string, i: number): string {
  const P = TRANSFER_SEED_PLAN
  return i % P.otherOrganizationEvery === P.otherOrganizationEvery - 1
    ? otherOrganizationId(mainOrganizationId, Math.floor(i / P.otherOrganizationEvery) % P.otherOrganizations)
    : mainOrganizationId
}

/** Transfer i's events: created (as a draft, or submitted), then the moves its status takes. */
export function seedTransferEvents(mainOrganizationId: string, i: number): TransferEvent[] {
  const P = TRANSFER_SEED_PLAN
  const atMs = P.firstCreatedAtMs + i
  const at = new Date(atMs).toISOString()
  const transferId = newId('tfr', atMs)
  // The other ids are the transfer's own with their prefix (one random draw a transfer: drawing is most of a row's cost).
  const idLike = (prefix: string, n = '') => `${prefix}_${transferId.slice(4)}${n}`
  const organizationId = organizationOf(mainOrganizationId, i)
  const customerId = i % P.bigCustomerEvery === 0 ? BIG_CUSTOMER : seedTransferCustomerId(i % P.customers)
  const status = statusOf(i)
  const usd = { currency: 'USD', amountMinor: String(1_000 + (i % 10_000)) }
  const side = { kind: 'BALANCE' as const, currency: 'USD', paymentRail: 'BALANCE', accountType: 'INFINITE_BANK', externalAccountId: null }
  const leg = (type: 'BALANCE_DEBIT' | 'BALANCE_CREDIT') =>
    ({
      id: idLike('tleg', type === 'BALANCE_DEBIT' ? '0' : '1'),
      type,
      inputCurrency: 'USD',
      outputCurrency: 'USD',
      inputRail: 'BALANCE',
      outputRail: 'BALANCE',
    }) as const
  const ref = { transferId, organizationId, at }
  const created: TransferEvent = {
    type: 'TransferCreated',
    data: {
      ...ref,
      customerId,
      flow: FLOWS[i % FLOWS.length]!,
      status: status === 'DRAFT' ? 'DRAFT' : 'PENDING',
      createdBy: 'CALLER',
      heldByPlatform: false,
      source: {
        ...side,
        accountId: `acc_tbench${String(i % P.customers).padStart(21, '0')}`,
        fromAddress: null,
        refundAccountId: null,
        accountName: null,
      },
      destination: {
        ...side,
        accountId: `acc_tbenchdst${String(i % 50_000).padStart(18, '0')}`,
        toAddress: null,
        accountName: 'Bench payee',
        bankName: null,
        bankCountryCode: null,
        wireMessage: null,
        achReference: null,
        swiftReference: null,
        rtpReference: null,
        payoutReference: null,
        customerId: i % 5 < 2 ? seedTransferCustomerId((i * 7 + 3) % P.customers) : null,
      },
      sourceAmount: usd,
      destinationAmount: usd,
      fee: { fixedMinor: '0', percent: null, amountMinor: '0' },
      rate: { exchangeRate: '1', referenceRate: '1', referenceRateAsOf: at, referenceProvider: 'SANDBOX' },
      legs: [leg('BALANCE_DEBIT'), leg('BALANCE_CREDIT')],
      funding: 'BALANCE',
      depositInstructions: null,
      counterpartyId: i % 3 === 0 ? `cp_tbench${String(i % 5_000).padStart(22, '0')}` : null,
      isThirdParty: false,
      clientReferenceId: i % 2 === 0 ? seedClientReferenceId(i) : null,
      quoteId: null,
      remarks: null,
      metadata: { batch: 'bench' },
      agentId: null,
      parentTransferId: null,
      schedule: { estimatedSettlementAt: null, nextCutoffAt: null, cutoffTimezone: null },
      swiftRouting: null,
      sandboxTrigger: null,
    },
  }
  const funded: TransferEvent = {
    type: 'TransferFunded',
    data: {
      ...ref,
      customerId,
      method: 'BALANCE',
      accountId: null,
      holdId: idLike('hld'),
      fundingCustomerId: customerId,
      note: null,
      originator: null,
      tracking: {},
    },
  }
  const seen = { customerId, originator: null }
  const completed: TransferEvent[] = [
    funded,
    { type: 'TransferLegCompleted', data: { ...ref, ...seen, index: 1, tracking: {} } },
    { type: 'TransferCompleted', data: { ...ref, systemRemark: null, transaction: null } },
  ]
  switch (status) {
    case 'COMPLETED':
      return [created, ...completed]
    case 'REVERSED':
      return [
        created,
        ...completed,
        { type: 'TransferReversed', data: { ...ref, code: 'R01', reason: 'returned', returnedToAccountId: null } },
      ]
    case 'PROCESSING':
      return [created, funded]
    case 'IN_REVIEW':
      return [created, funded, { type: 'TransferHeldForReview', data: { ...ref, ...seen, code: 'compliance_review', reason: 'review' } }]
    case 'FAILED':
      return [created, { type: 'TransferFailed', data: { ...ref, code: 'rail_rejected', reason: 'rejected before funding' } }]
    case 'CANCELLED':
      return [created, { type: 'TransferCancelled', data: { ...ref, reason: null } }]
    default:
      return [created]
  }
}

/** The row the transfers projector holds for transfer i (the decider's evolve, the projector's row). */
function rowOf(mainOrganizationId: string, i: number) {
  const state = seedTransferEvents(mainOrganizationId, i).reduce(transferDecider.evolve, transferDecider.initialState())
  if (state.status === 'none') throw new Error('a seeded transfer has no state')
  return transferRow(state, state)
}

const COLUMNS = [
  'id',
  'organization_id',
  'customer_id',
  'destination_customer_id',
  'counterparty_id',
  'agent_id',
  'agent_approval_status',
  'client_reference_id',
  'flow',
  'status',
  'source_account_id',
  'destination_account_id',
  'created_at',
  'updated_at',
  'state',
  'resource',
] as const

/** One statement of the same text for any number of rows (one JSON parameter): bind parameters by the ten thousand cost more. */
function insertRows(db: Kysely<ReadDatabase>, rows: ReturnType<typeof rowOf>[]) {
  return db
    .insertInto('transfers')
    .columns([...COLUMNS])
    .expression(
      sql`SELECT r.id, r.organization_id, r.customer_id, r.destination_customer_id, r.counterparty_id, r.agent_id,
        r.agent_approval_status, r.client_reference_id, r.flow, r.status, r.source_account_id, r.destination_account_id,
        r.created_at, r.updated_at, r.state::jsonb, r.resource::json
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(id text, organization_id text, customer_id text,
        destination_customer_id text, counterparty_id text, agent_id text, agent_approval_status text, client_reference_id text,
        flow text, status text, source_account_id text, destination_account_id text, created_at timestamptz,
        updated_at timestamptz, state text, resource text)`,
    )
    .execute()
}

/**
 * Writes transfers `from` to `to` (exclusive) of the mix as read-model rows, as a bulk load does:
 * the secondary indexes dropped first and built again from their own definitions (migration 0018's)
 * after the rows, each batch made while the previous one is written; then VACUUM ANALYZE, as
 * autovacuum would after a load this size, and a CHECKPOINT, so that the one a load this size sets off
 * (its dirty pages written out over minutes) is over before anything is measured.
 */
export async function insertSeedTransfers(
  db: Kysely<ReadDatabase>,
  mainOrganizationId: string,
  from: number,
  to: number,
  onProgress?: (written: number) => void,
): Promise<void> {
  const P = TRANSFER_SEED_PLAN
  const { rows: indexes } = await sql<{ name: string; definition: string }>`SELECT indexname AS name, indexdef AS definition
    FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'transfers' AND indexname <> 'transfers_pkey'`.execute(db)
  for (const index of indexes) await sql`DROP INDEX ${sql.ref(index.name)}`.execute(db)
  const batch = (start: number) =>
    Array.from({ length: Math.min(to, start + P.rowsPerInsert) - start }, (_, k) => rowOf(mainOrganizationId, start + k))
  let writing: Promise<unknown> = Promise.resolve()
  for (let start = from; start < to; start += P.rowsPerInsert) {
    const rows = batch(start)
    await writing
    onProgress?.(start - from)
    writing = insertRows(db, rows)
  }
  await writing
  await db.connection().execute(async (connection) => {
    await sql`SET maintenance_work_mem = '256MB'`.execute(connection)
    for (const index of indexes) await sql.raw(index.definition).execute(connection)
  })
  await sql`VACUUM ANALYZE transfers`.execute(db)
  await sql`CHECKPOINT`.execute(db)
}
