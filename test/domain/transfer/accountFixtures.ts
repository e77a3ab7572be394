// Accounts as a transfer request names them, folded from AccountOpened events by the account
// decider: a USD balance, a stablecoin wallet, an external bank account and an external wallet, all
// ACTIVE and owned by CUSTOMER of ORG.
import { type OpenAccountState, accountDecider } from '../../../domain/account/decider.js'
import type { AccountEvent } from '../../../domain/account/events.js'
import { CUSTOMER, ORG, T0 } from './transferFixtures.js'

export type Opened = Extract<AccountEvent, { type: 'AccountOpened' }>['data']

const base = {
  organizationId: ORG,
  customerId: CUSTOMER,
  status: 'ACTIVE' as const,
  provider: 'SANDBOX',
  counterpartyId: null,
  metadata: {},
  at: T0,
}
export const USD: Opened = {
  ...base,
  accountId: 'acc_01jdtfr0000000000000000001',
  kind: 'USD_BALANCE',
  type: 'INFINITE_BANK',
  currencyCodes: ['USD'],
  paymentRails: ['ACH', 'WIRE', 'BALANCE'],
  holdsBalance: true,
  balanceSourceEligible: true,
  details: { kind: 'USD_BALANCE' },
}
export const WALLET: Opened = {
  ...base,
  accountId: 'inw_01jdtfr0000000000000000001',
  kind: 'STABLECOIN_BALANCE',
  type: 'INFINITE_WALLET',
  currencyCodes: ['USDC', 'USDT'],
  paymentRails: ['BALANCE'],
  holdsBalance: true,
  balanceSourceEligible: true,
  details: { kind: 'STABLECOIN_BALANCE', chain: 'SOLANA', addressType: 'SOLANA', walletAddress: 'So1anaWa11et', walletType: 'CUSTOMER' },
}
export const BANK: Opened = {
  ...base,
  accountId: 'eba_01jdtfr0000000000000000001',
  kind: 'EXTERNAL_BANK',
  type: 'EXTERNAL_BANK',
  currencyCodes: ['USD'],
  paymentRails: ['ACH', 'WIRE'],
  holdsBalance: false,
  balanceSourceEligible: false,
  details: {
    kind: 'EXTERNAL_BANK',
    accountOwnerName: 'Ada Lovelace',
    accountOwnerType: 'INDIVIDUAL',
    bankName: 'First Sandbox Bank',
    bankCountry: 'US',
    currency: 'USD',
    accountType: 'CHECKING',
    accountNumber: '000123456789',
    routingNumber: '021000021',
    iban: null,
    bic: null,
    last4: '6789',
  },
}
export const EXTERNAL_WALLET: Opened = {
  ...base,
  accountId: 'ewa_01jdtfr0000000000000000001',
  kind: 'EXTERNAL_WALLET',
  type: 'EXTERNAL_WALLET',
  currencyCodes: ['USDC'],
  paymentRails: [],
  holdsBalance: false,
  balanceSourceEligible: false,
  details: {
    kind: 'EXTERNAL_WALLET',
    walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    addressType: 'EVM',
    chains: ['ETHEREUM', 'BASE'],
    currencies: ['USDC'],
    custodyType: 'SELF_HOSTED',
    isThirdParty: false,
    externalReference: null,
  },
}

export function account(data: Opened, ...more: AccountEvent[]): OpenAccountState {
  const state = [{ type: 'AccountOpened' as const, data }, ...more].reduce(accountDecider.evolve, accountDecider.initialState())
  if (state.status === 'none') throw new Error('not opened')
  return state
}
export const closed = (data: Opened) =>
  account(data, { type: 'AccountClosed', data: { accountId: data.accountId, organizationId: ORG, reason: 'CLOSED_BY_CALLER', at: T0 } })
