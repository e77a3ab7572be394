// Seeds balance accounts and their money for the balance tests through the account aggregate's
// commands on the test app's store (the funds operations of commands/accounts/funds.ts, as other
// slices call them), each waited for by the app's projections (read-your-writes).
import { accountDecider } from '../../domain/account/decider.js'
import { newId } from '../../domain/shared/ids.js'
import { creditFunds, placeHold, releaseHold, reverseCredit, settleHold } from '../../commands/accounts/funds.js'
import { type CommandRuntime, createCommandRuntime } from '../../commands/runtime/commandRuntime.js'
import type { CommandResult } from '../../commands/runtime/commandResult.js'
import type { CommandOrigin } from '../../commands/runtime/commandOrigin.js'
import { streams } from '../../events/streams.js'
import type { TestApp } from '../harness/testApp.js'

export type Seeder = ReturnType<typeof balanceSeeder>

export function balanceSeeder(h: TestApp) {
  const runtime: CommandRuntime = createCommandRuntime({
    store: h.runtime.store,
    readYourWrites: (position, types) => h.runtime.runner.waitFor(position, 10_000, types),
  })
  const origin = (organizationId: string): CommandOrigin => ({ organizationId, requestId: 'req_seed', actor: 'test' })
  const settled = async <S>(work: Promise<CommandResult<S>>): Promise<CommandResult<S>> => {
    const result = await work
    await runtime.readYourWrites(
      result.position,
      result.events.map((e) => e.type),
    )
    return result
  }
  const now = () => new Date().toISOString()

  return {
    runtime,
    /** A USD (acc_) balance account, or a stablecoin (inw_) one when currencies are not USD. */
    async open(organizationId: string, customerId: string | null, currencyCodes: string[] = ['USD']): Promise<string> {
      const usd = currencyCodes.includes('USD')
      const accountId = newId(usd ? 'acc' : 'inw')
      const details = usd
        ? ({ kind: 'USD_BALANCE' } as const)
        : ({
            kind: 'STABLECOIN_BALANCE',
            chain: 'SOLANA',
            addressType: 'SOLANA',
            walletAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
            walletType: customerId ? 'CUSTOMER' : 'TREASURY',
          } as const)
      await settled(
        runtime.handle(
          accountDecider,
          streams.account(accountId),
          {
            type: 'OpenAccount',
            organizationId,
            accountId,
            now: now(),
            status: 'ACTIVE',
            account: {
              customerId,
              kind: details.kind,
              type: usd ? 'INFINITE_BANK' : 'INFINITE_WALLET',
              currencyCodes,
              paymentRails: ['BALANCE'],
              holdsBalance: true,
              balanceSourceEligible: true,
              provider: 'SANDBOX',
              counterpartyId: null,
              metadata: {},
              details,
            },
          },
          origin(organizationId),
          { newStream: true },
        ),
      )
      return accountId
    },
    /** An external bank account (holds no balance). */
    async openExternal(organizationId: string, customerId: string): Promise<string> {
      const accountId = newId('eba')
      await settled(
        runtime.handle(
          accountDecider,
          streams.account(accountId),
          {
            type: 'OpenAccount',
            organizationId,
            accountId,
            now: now(),
            status: 'ACTIVE',
            account: {
              customerId,
              kind: 'EXTERNAL_BANK',
              type: 'EXTERNAL_BANK',
              currencyCodes: ['USD'],
              paymentRails: ['ACH'],
              holdsBalance: false,
              balanceSourceEligible: false,
              provider: 'SANDBOX',
              counterpartyId: null,
              metadata: {},
              details: {
                kind: 'EXTERNAL_BANK',
                accountOwnerName: 'Ada Lovelace',
                accountOwnerType: 'INDIVIDUAL',
                bankName: 'Test Bank',
                bankCountry: 'US',
                currency: 'USD',
                accountType: 'CHECKING',
                accountNumber: '000123456789',
                routingNumber: '011000015',
                iban: null,
                bic: null,
                last4: '6789',
              },
            },
          },
          origin(organizationId),
          { newStream: true },
        ),
      )
      return accountId
    },
    credit: (organizationId: string, accountId: string, amountMinor: bigint, cause: string, currency = 'USD', draw = false) =>
      settled(
        creditFunds(
          runtime,
          { organizationId, accountId, currency, amountMinor, cause, source: draw ? 'credit_line' : 'world' },
          origin(organizationId),
        ),
      ),
    hold: (organizationId: string, accountId: string, holdId: string, amountMinor: bigint, currency = 'USD') =>
      settled(placeHold(runtime, { organizationId, accountId, holdId, currency, amountMinor }, origin(organizationId))),
    settle: (organizationId: string, accountId: string, holdId: string) =>
      // A hold the API placed leaves the service when it settles (a transfer's settles into clearing: its own tests).
      settled(settleHold(runtime, { organizationId, accountId, holdId, to: 'world' }, origin(organizationId))),
    release: (organizationId: string, accountId: string, holdId: string) =>
      settled(releaseHold(runtime, { organizationId, accountId, holdId }, origin(organizationId))),
    reverse: (organizationId: string, accountId: string, amountMinor: bigint, cause: string, currency = 'USD') =>
      settled(reverseCredit(runtime, { organizationId, accountId, currency, amountMinor, cause }, origin(organizationId))),
  }
}

/** A new individual customer of the test app's organization (or `apiKey`'s), through HTTP. */
export async function newCustomer(h: TestApp, apiKey?: string): Promise<string> {
  const res = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', countryCode: 'US' },
    ...(apiKey ? { apiKey } : {}),
  })
  if (res.statusCode !== 201) throw new Error(`create customer: ${res.statusCode} ${res.body}`)
  return res.json().id as string
}
