// Accounts for the account read tests, opened through the command runtime (OpenAccount on the
// account's stream, projected by the app's own projectors), and virtual accounts (which no command
// opens yet: the fixed-routes issue brings them) written as rows of the read model (and counted).
import { sql } from 'kysely'
import { ACCOUNT_KINDS, type AccountKind } from '../../domain/account/accountKinds.js'
import { accountDecider } from '../../domain/account/decider.js'
import type { AccountDetails } from '../../domain/account/events.js'
import type { AccountResource } from '../../domain/account/resource.js'
import type { AddressType } from '../../domain/shared/chain/chains.js'
import { newId } from '../../domain/shared/ids.js'
import type { PaymentRail } from '../../domain/shared/paymentRails.js'
import { streams } from '../../events/streams.js'
import { toJson } from '../../projections/columnTypes.js'
import type { TestApp } from '../harness/testApp.js'

/** The kinds a test opens directly (a fixed route's accounts come with their route, through HTTP). */
type DirectKind = Exclude<AccountKind, 'VIRTUAL_BANK' | 'DEPOSIT_WALLET'>

export type AccountSpec = {
  kind: DirectKind
  customerId: string | null
  status?: 'ACTIVE' | 'IN_REVIEW'
  currencyCodes?: string[]
  paymentRails?: PaymentRail[]
  provider?: string
  counterpartyId?: string | null
  addressType?: AddressType
  holdsBalance?: boolean
  balanceSourceEligible?: boolean
}

function detailsOf(spec: AccountSpec): AccountDetails {
  switch (spec.kind) {
    case 'USD_BALANCE':
      return { kind: 'USD_BALANCE' }
    case 'STABLECOIN_BALANCE':
      return {
        kind: 'STABLECOIN_BALANCE',
        chain: 'SOLANA',
        addressType: spec.addressType ?? 'SOLANA',
        walletAddress: 'So11111111111111111111111111111111111111112',
        walletType: spec.customerId === null ? 'TREASURY' : 'CUSTOMER',
      }
    case 'EXTERNAL_BANK':
      return {
        kind: 'EXTERNAL_BANK',
        accountOwnerName: 'Ada Lovelace',
        accountOwnerType: 'INDIVIDUAL',
        bankName: 'Test Bank',
        bankCountry: 'US',
        currency: 'USD',
        accountType: 'CHECKING',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        iban: null,
        bic: null,
        last4: '6789',
      }
    case 'EXTERNAL_WALLET':
      return {
        kind: 'EXTERNAL_WALLET',
        walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
        addressType: spec.addressType ?? 'EVM',
        chains: ['ETHEREUM'],
        currencies: spec.currencyCodes ?? ['USDC'],
        custodyType: 'SELF_HOSTED',
        isThirdParty: true,
        externalReference: null,
      }
  }
}

const DEFAULTS: Record<DirectKind, { currencyCodes: string[]; paymentRails: PaymentRail[]; holdsBalance: boolean; provider: string }> = {
  USD_BALANCE: { currencyCodes: ['USD'], paymentRails: ['ACH', 'WIRE', 'BALANCE'], holdsBalance: true, provider: 'INFINITE' },
  STABLECOIN_BALANCE: { currencyCodes: ['USDC'], paymentRails: ['BALANCE'], holdsBalance: true, provider: 'INFINITE' },
  EXTERNAL_BANK: { currencyCodes: ['USD'], paymentRails: ['ACH', 'WIRE'], holdsBalance: false, provider: 'EXTERNAL' },
  EXTERNAL_WALLET: { currencyCodes: ['USDC'], paymentRails: [], holdsBalance: false, provider: 'EXTERNAL' },
}

/** Opens an account of `spec` in `organizationId` and waits for the read model to show it; its id. */
export async function openAccount(h: TestApp, organizationId: string, spec: AccountSpec): Promise<string> {
  const d = DEFAULTS[spec.kind]
  const kind = ACCOUNT_KINDS[spec.kind]
  const accountId = newId(kind.prefix)
  const holdsBalance = spec.holdsBalance ?? d.holdsBalance
  const result = await h.runtime.commands.handle(
    accountDecider,
    streams.account(accountId),
    {
      type: 'OpenAccount',
      organizationId,
      accountId,
      now: new Date().toISOString(),
      status: spec.status ?? 'ACTIVE',
      account: {
        customerId: spec.customerId,
        kind: spec.kind,
        type: kind.type,
        currencyCodes: spec.currencyCodes ?? d.currencyCodes,
        paymentRails: spec.paymentRails ?? d.paymentRails,
        holdsBalance,
        balanceSourceEligible: spec.balanceSourceEligible ?? holdsBalance,
        provider: spec.provider ?? d.provider,
        counterpartyId: spec.counterpartyId ?? null,
        metadata: { nickname: `${spec.kind} account` },
        details: detailsOf(spec),
      },
    },
    { organizationId, requestId: 'req_test', actor: 'test' },
    { newStream: true },
  )
  if (!(await h.runtime.runner.waitFor(result.position, 10_000))) throw new Error(`account ${accountId} not projected in time`)
  return accountId
}

/**
 * A virtual bank account or wallet sweeping to `sweepTargetAccountId`, written as a read-model
 * row: the account events carry no sweep target yet (the fixed-routes issue adds it).
 */
export async function insertVirtualAccount(
  h: TestApp,
  organizationId: string,
  spec: { customerId: string | null; sweepTargetAccountId: string; wallet?: boolean },
): Promise<string> {
  const prefix = spec.wallet ? 'vwa' : 'vba'
  const id = newId(prefix)
  const now = new Date().toISOString()
  const resource: AccountResource = {
    id,
    type: spec.wallet ? 'VIRTUAL_WALLET' : 'VIRTUAL_BANK',
    status: 'ACTIVE',
    customerId: spec.customerId,
    currencyCodes: [spec.wallet ? 'USDC' : 'USD'],
    paymentRails: spec.wallet ? [] : ['ACH', 'WIRE'],
    holdsBalance: false,
    balanceSourceEligible: false,
    provider: 'INFINITE',
    counterpartyId: null,
    sweepTargetAccountId: spec.sweepTargetAccountId,
    metadata: {},
    createdAt: now,
    updatedAt: now,
    closedAt: null,
  }
  await h.runtime.db
    .insertInto('accounts')
    .values({
      id,
      organization_id: organizationId,
      customer_id: spec.customerId,
      counterparty_id: null,
      sweep_target_account_id: spec.sweepTargetAccountId,
      type: resource.type,
      status: resource.status,
      provider: resource.provider,
      holds_balance: false,
      balance_source_eligible: false,
      address_type: spec.wallet ? 'EVM' : null,
      currency_codes: resource.currencyCodes,
      payment_rails: resource.paymentRails,
      created_at: now,
      updated_at: now,
      resource: toJson(resource),
    })
    .execute()
  // The organization's count, as the account counts projector keeps it for opened accounts.
  await h.runtime.db
    .insertInto('account_counts')
    .values({ organization_id: organizationId, accounts: '1' })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ accounts: sql`account_counts.accounts + 1` }))
    .execute()
  return id
}
