// Helpers of the liquidity facility tests: Solana treasuries opened on the account aggregate (its
// HTTP routes belong to another slice), the credit line configured through the sandbox operation,
// and the treasury's balance read from its stream.
import { accountDecider } from '../../domain/account/decider.js'
import { availableIn } from '../../domain/balance-account/funds.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import type { TestApp } from '../harness/testApp.js'

export const SOLANA_ADDRESS = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'

export type TreasuryOptions = {
  nickname?: string
  addressType?: 'SOLANA' | 'EVM'
  customerId?: string | null
  currency?: 'USDC' | 'USDT'
}

/** Opens an ACTIVE stablecoin internal wallet (inw_) for `organizationId` and waits until the read model shows it. */
export async function openTreasury(h: TestApp, organizationId: string, options: TreasuryOptions = {}): Promise<string> {
  const accountId = newId('inw')
  const addressType = options.addressType ?? 'SOLANA'
  const customerId = options.customerId ?? null
  const result = await h.runtime.commands.handle(
    accountDecider,
    streams.account(accountId),
    {
      type: 'OpenAccount',
      organizationId,
      accountId,
      now: new Date().toISOString(),
      status: 'ACTIVE',
      account: {
        customerId,
        kind: 'STABLECOIN_BALANCE',
        type: 'INFINITE_WALLET',
        currencyCodes: [options.currency ?? 'USDC'],
        paymentRails: [],
        holdsBalance: true,
        balanceSourceEligible: true,
        provider: 'SANDBOX',
        counterpartyId: null,
        metadata: options.nickname ? { nickname: options.nickname } : {},
        details: {
          kind: 'STABLECOIN_BALANCE',
          chain: addressType === 'SOLANA' ? 'SOLANA' : 'ETHEREUM',
          addressType,
          walletAddress: addressType === 'SOLANA' ? SOLANA_ADDRESS : '0x52908400098527886E0F7030069857D2E4169EE7',
          walletType: customerId === null ? 'TREASURY' : 'CUSTOMER',
        },
      },
    },
    { organizationId, requestId: newId('req'), actor: 'test' },
  )
  await h.runtime.runner.waitFor(result.position, 10_000)
  return accountId
}

/** Closes an account (it must hold nothing) and waits for the read model. */
export async function closeAccount(h: TestApp, organizationId: string, accountId: string): Promise<void> {
  const result = await h.runtime.commands.handle(
    accountDecider,
    streams.account(accountId),
    { type: 'CloseAccount', organizationId, accountId, now: new Date().toISOString(), reason: 'CLOSED_BY_CALLER' },
    { organizationId, requestId: newId('req'), actor: 'test' },
  )
  await h.runtime.runner.waitFor(result.position, 10_000)
}

/** The treasury's available balance in `currency`, in minor units, from its stream. */
export async function availableOn(h: TestApp, accountId: string, currency = 'USDC'): Promise<bigint> {
  const { state } = await h.runtime.commands.load(accountDecider, streams.account(accountId))
  if (state.status === 'none' || !state.funds) throw new Error(`account ${accountId} holds no balance`)
  return availableIn(state.funds, currency)
}

export const TERMS = { creditLimit: '1000000000', maximumDrawAmount: '400000000', fundingFeeBpsPerHour: 1.5, feeCapHours: 24 }

/** Configures the credit line through the sandbox operation (as `apiKey`'s organization). */
export async function configure(h: TestApp, terms: Record<string, unknown> = TERMS, apiKey?: string) {
  return h.request({ method: 'PUT', url: '/v1/sandbox/liquidity/facility', payload: terms, ...(apiKey ? { apiKey } : {}) })
}

/** A facility ready to draw on: configured, with a payout treasury set. */
export async function readyFacility(h: TestApp, terms: Record<string, unknown> = TERMS, org = h.org): Promise<string> {
  const treasuryId = await openTreasury(h, org.organizationId, { nickname: 'Payouts' })
  const configured = await configure(h, terms, org.apiKey)
  if (configured.statusCode !== 200) throw new Error(`configure: ${configured.statusCode} ${configured.body}`)
  const set = await h.request({
    method: 'PATCH',
    url: '/v1/liquidity/facility',
    payload: { payoutTreasuryId: treasuryId },
    apiKey: org.apiKey,
  })
  if (set.statusCode !== 200) throw new Error(`set treasury: ${set.statusCode} ${set.body}`)
  return treasuryId
}
