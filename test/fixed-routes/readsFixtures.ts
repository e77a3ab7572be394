// Fixed routes as their account events record them, for the read-side tests: an AccountOpened of a
// USD virtual bank account (ACH and wire), a EUR one (SEPA, an IBAN) and a deposit wallet
// (USDC on Ethereum), with coordinates that pass their check digits, and the later events.
import type { AccountEvent } from '../../domain/account/events.js'
import { bankCoordinates } from '../../domain/fixed-route/depositCoordinates.js'
import type { FixedRouteConfig } from '../../domain/fixed-route/routeConfig.js'

export const BENEFICIARY = 'Ada Lovelace Holdings'
export const BENEFICIARY_ADDRESS = '12 St James Square, London'

const usd = bankCoordinates({
  currency: 'USD',
  beneficiaryName: BENEFICIARY,
  beneficiaryAddress: BENEFICIARY_ADDRESS,
  random: new Uint8Array(16).fill(7),
})
const eur = bankCoordinates({ currency: 'EUR', beneficiaryName: BENEFICIARY, beneficiaryAddress: null, random: new Uint8Array(16).fill(3) })
/** The full account number and IBAN the fixtures' virtual bank accounts get. */
export const USD_ACCOUNT_NUMBER = usd.accountNumber!
export const EUR_IBAN = eur.iban!
export const WALLET_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'

export function routeConfig(sweepTargetAccountId: string, overrides: Partial<FixedRouteConfig> = {}): FixedRouteConfig {
  return {
    type: 'FIAT_TO_CRYPTO',
    sourceCurrency: 'USD',
    sourceRails: ['ACH', 'WIRE'],
    chain: null,
    sweepTargetAccountId,
    destinationCurrency: 'USDC',
    destinationRail: 'ETHEREUM',
    developerFeeFixedMinor: '100',
    developerFeePercent: '0.01',
    refundAccountId: null,
    allowedSenderBanks: [],
    minimumAmountMinor: '1000',
    correspondentBank: null,
    documentIds: [],
    mintOnDelivery: false,
    ...overrides,
  }
}

export type RouteKind = 'USD_BANK' | 'EUR_BANK' | 'WALLET'

type Opened = Extract<AccountEvent, { type: 'AccountOpened' }>['data']

/** The AccountOpened data of a route of `kind` (without accountId, organizationId and at). */
export function routeAccount(
  kind: RouteKind,
  customerId: string,
  sweepTargetAccountId: string,
): Omit<Opened, 'accountId' | 'organizationId' | 'at' | 'status'> {
  const common = {
    customerId,
    holdsBalance: false,
    balanceSourceEligible: false,
    provider: 'INFINITE',
    counterpartyId: null,
    metadata: { nickname: `${kind} route` },
  }
  if (kind === 'WALLET')
    return {
      ...common,
      kind: 'DEPOSIT_WALLET',
      type: 'VIRTUAL_WALLET',
      currencyCodes: ['USDC'],
      paymentRails: [],
      details: {
        kind: 'DEPOSIT_WALLET',
        route: routeConfig(sweepTargetAccountId, {
          type: 'CRYPTO_TO_FIAT',
          sourceCurrency: 'USDC',
          sourceRails: [],
          chain: 'ETHEREUM',
          destinationCurrency: 'USD',
          destinationRail: 'BALANCE',
          minimumAmountMinor: null,
        }),
        chain: 'ETHEREUM',
        addressType: 'EVM',
        walletAddress: WALLET_ADDRESS,
      },
    }
  const euro = kind === 'EUR_BANK'
  return {
    ...common,
    kind: 'VIRTUAL_BANK',
    type: 'VIRTUAL_BANK',
    currencyCodes: [euro ? 'EUR' : 'USD'],
    paymentRails: euro ? ['SEPA'] : ['ACH', 'WIRE'],
    details: {
      kind: 'VIRTUAL_BANK',
      route: euro ? routeConfig(sweepTargetAccountId, { sourceCurrency: 'EUR', sourceRails: ['SEPA'] }) : routeConfig(sweepTargetAccountId),
      coordinates: euro ? eur : usd,
    },
  }
}

/** The AccountOpened event of a route. */
export function routeOpened(
  kind: RouteKind,
  ids: { accountId: string; organizationId: string; customerId: string; sweepTargetAccountId: string },
  at: string,
): AccountEvent {
  return {
    type: 'AccountOpened',
    data: {
      ...routeAccount(kind, ids.customerId, ids.sweepTargetAccountId),
      accountId: ids.accountId,
      organizationId: ids.organizationId,
      status: 'ACTIVE',
      at,
    },
  }
}
