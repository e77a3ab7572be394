// Chains and wallets (domain/shared/chain, domain/shared/paymentRails): the spec's reference data,
// the chain/currency table, and the check that a wallet's chains and currencies fit its address type.
import fc from 'fast-check'
import t from 'tap'
import {
  ADDRESS_TYPES,
  type AddressType,
  CHAINS,
  CHAIN_TABLE,
  CUSTODY_TYPES,
  type Chain,
  WALLET_CURRENCIES,
  WALLET_FIT_LIMITS,
  type WalletCurrency,
  addressTypeOf,
  chainSchema,
  chainsOf,
  checkWalletFit,
  custodyTypeSchema,
} from '../../domain/shared/chain/index.js'
import { exponentOf } from '../../domain/shared/money/index.js'
import { ACCOUNT_CURRENCY_CODES, PAYMENT_RAILS, paymentRailSchema } from '../../domain/shared/paymentRails.js'

const RUNS = { seed: 20261124, numRuns: 500 } as const

const fit = (addressType: AddressType, chains: string[], currencies: string[]) => checkWalletFit({ addressType, chains, currencies })

/** The refusal's details as [field, message] pairs (empty when the fit was accepted). */
function problems(checked: ReturnType<typeof checkWalletFit>): [string, string][] {
  return checked.ok ? [] : checked.error.details.map((d) => [d.field, d.message])
}

t.test("the spec's lists, exactly", async (t) => {
  t.same(CHAINS, ['ETHEREUM', 'BASE', 'POLYGON', 'SOLANA', 'TRON', 'BITCOIN', 'ARBITRUM', 'ROBINHOOD'])
  t.same(ADDRESS_TYPES, ['EVM', 'TRON', 'BITCOIN', 'SOLANA'])
  t.same(CUSTODY_TYPES, [
    'SELF_HOSTED',
    'ANCHORAGE',
    'BINANCE',
    'BITGO',
    'CIRCLE',
    'COINBASE',
    'FIREBLOCKS',
    'GEMINI',
    'KRAKEN',
    'ROBINHOOD',
    'OTHER_EXCHANGE',
  ])
  t.same(ACCOUNT_CURRENCY_CODES, ['USD', 'EUR', 'MXN', 'USAT', 'USDC', 'USDT', 'BTC'])
  t.equal(PAYMENT_RAILS.length, 80, 'the 80 rails of the Account section')
  t.equal(new Set(PAYMENT_RAILS).size, PAYMENT_RAILS.length, 'none repeated')
  t.same([PAYMENT_RAILS[0], PAYMENT_RAILS[1], PAYMENT_RAILS.at(-1)], ['ACH', 'ACH_SAME_DAY', 'TRY_FAST'])
  for (const rail of ['SEPA_INSTANT', 'IMPS_WITH_FIRC', 'USD_ACH_SV', 'HKD_FPS', 'RTC_ZA'])
    t.ok(paymentRailSchema.safeParse(rail).success, rail)
  t.notOk(paymentRailSchema.safeParse('ach').success, 'upper case only')
  t.notOk(chainSchema.safeParse('Ethereum').success)
  t.notOk(custodyTypeSchema.safeParse('LEDGER').success)
})

t.test('every account currency is in the money table with its exponent', async (t) => {
  t.same(
    ACCOUNT_CURRENCY_CODES.map((c) => [c, exponentOf(c)]),
    [
      ['USD', 2],
      ['EUR', 2],
      ['MXN', 2],
      ['USAT', 6],
      ['USDC', 6],
      ['USDT', 6],
      ['BTC', 8],
    ],
  )
})

t.test('the chain table: address types and carried currencies', async (t) => {
  t.same(chainsOf('EVM'), ['ETHEREUM', 'BASE', 'POLYGON', 'ARBITRUM', 'ROBINHOOD'])
  t.same(chainsOf('SOLANA'), ['SOLANA'])
  t.same(chainsOf('TRON'), ['TRON'])
  t.same(chainsOf('BITCOIN'), ['BITCOIN'])
  for (const chain of CHAINS) t.ok(CHAIN_TABLE[chain].currencies.length > 0, `${chain} carries something`)
  for (const currency of WALLET_CURRENCIES) {
    t.ok(
      CHAINS.some((chain) => (CHAIN_TABLE[chain].currencies as readonly string[]).includes(currency)),
      `${currency} is on some chain`,
    )
  }
  t.same(
    CHAINS.filter((chain) => (CHAIN_TABLE[chain].currencies as readonly string[]).includes('USAT')),
    ['ETHEREUM'],
    'USAT: Ethereum only (the sandbox mints it there)',
  )
  t.same(CHAIN_TABLE.BITCOIN.currencies, ['BTC'])
  t.same(CHAIN_TABLE.TRON.currencies, ['USDT'])
})

t.test('fits: chains of the address type, currencies each carried by one of them', async (t) => {
  t.same(fit('EVM', ['ETHEREUM', 'BASE'], ['USDC']), { ok: true, value: { chains: ['ETHEREUM', 'BASE'], currencies: ['USDC'] } })
  t.ok(fit('EVM', ['ETHEREUM'], ['USAT', 'USDT', 'USDC']).ok)
  t.ok(fit('EVM', ['BASE', 'ETHEREUM'], ['USAT', 'USDC']).ok, 'USAT needs only one chain that carries it')
  t.ok(fit('EVM', ['ROBINHOOD', 'ARBITRUM', 'POLYGON'], ['USDC', 'USDT']).ok)
  t.ok(fit('SOLANA', ['SOLANA'], ['USDC', 'USDT']).ok)
  t.ok(fit('TRON', ['TRON'], ['USDT']).ok)
  t.ok(fit('BITCOIN', ['BITCOIN'], ['BTC']).ok)
})

t.test('misfits: each offending value named in its own detail', async (t) => {
  const checked = fit('EVM', ['ETHEREUM', 'TRON', 'BASE'], ['USAT', 'BTC', 'EUR'])
  t.equal(checked.ok ? '' : checked.error.code, 'wallet_chains_mismatch')
  t.same(problems(checked), [
    ['chains.1', 'TRON uses TRON addresses, not EVM'],
    ['currencies.1', 'BTC is not carried on ETHEREUM, BASE; no EVM chain carries it'],
    ['currencies.2', 'EUR is not a currency a wallet holds (USDC, USDT, USAT, BTC)'],
  ])
  t.same(checked.ok ? undefined : checked.error.details.map((d) => d.value), ['TRON', 'BTC', 'EUR'], 'the offending values')
  t.same(problems(fit('EVM', ['BASE'], ['USAT'])), [['currencies.0', 'USAT is not carried on BASE; it is on ETHEREUM']])
  t.same(problems(fit('EVM', ['BASE'], ['USDT'])), [['currencies.0', 'USDT is not carried on BASE; it is on ETHEREUM, POLYGON, ARBITRUM']])
  t.same(problems(fit('TRON', ['TRON'], ['USDC'])), [['currencies.0', 'USDC is not carried on TRON; no TRON chain carries it']])
  t.same(problems(fit('SOLANA', ['ETHEREUM'], ['USDC'])), [['chains.0', 'ETHEREUM uses EVM addresses, not SOLANA']])
  t.same(problems(fit('BITCOIN', ['BITCOIN', 'BITCOIN'], ['BTC', 'BTC'])), [
    ['chains.1', 'repeats BITCOIN'],
    ['currencies.1', 'repeats BTC'],
  ])
  t.same(problems(fit('EVM', ['ethereum', 'GOERLI'], ['USDC'])), [
    ['chains.0', 'ethereum is not a chain (ETHEREUM, BASE, POLYGON, SOLANA, TRON, BITCOIN, ARBITRUM, ROBINHOOD)'],
    ['chains.1', 'GOERLI is not a chain (ETHEREUM, BASE, POLYGON, SOLANA, TRON, BITCOIN, ARBITRUM, ROBINHOOD)'],
  ])
  t.same(problems(fit('EVM', [], [])), [
    ['chains', 'must name at least one chain'],
    ['currencies', 'must name at least one currency'],
  ])
  const many = Array.from({ length: 10_000 }, () => 'ETHEREUM')
  t.same(
    problems(fit('EVM', many, ['USDC'])),
    [['chains', `may name at most ${WALLET_FIT_LIMITS.maxChains}`]],
    'bounded before any other check',
  )
  t.same(problems(fit('EVM', ['ETHEREUM'], many)), [['currencies', `may name at most ${WALLET_FIT_LIMITS.maxCurrencies}`]])
})

t.test('property: a fit is accepted exactly when a plain reading of the table says so', async (t) => {
  const carries = (chain: Chain, currency: WalletCurrency) => (CHAIN_TABLE[chain].currencies as readonly string[]).includes(currency)
  t.doesNotThrow(
    () =>
      fc.assert(
        fc.property(
          fc.constantFrom(...ADDRESS_TYPES),
          fc.uniqueArray(fc.constantFrom(...CHAINS), { minLength: 1 }),
          fc.uniqueArray(fc.constantFrom(...WALLET_CURRENCIES), { minLength: 1 }),
          (addressType, chains, currencies) => {
            const expected =
              chains.every((chain) => addressTypeOf(chain) === addressType) &&
              currencies.every((currency) => chains.some((chain) => carries(chain, currency)))
            const checked = fit(addressType, chains, currencies)
            return checked.ok === expected && (checked.ok || checked.error.details.length > 0)
          },
        ),
        RUNS,
      ),
    'the check and the model agree',
  )
})
