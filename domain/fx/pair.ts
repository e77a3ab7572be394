// An FX pair (spec: "FX pair"): a source side and a destination side, each a currency with a
// network (crypto) or a rail (fiat), never both. The shape rules, the fiat source rails, and which
// corridors any upstream supports, checked in the order a caller can fix them:
//   400 fx_pair_shape_invalid (a network/rail slot filled or empty against the currency's kind)
//   400 fx_source_rail_not_supported (a fiat source on another rail than SEPA/SEPA_INSTANT for EUR,
//       FASTER_PAYMENTS for GBP; SWIFT and every slow rail are never a source)
//   404 fx_pair_unsupported, first for a code that is no currency at all, then after the two above
//       (no upstream quotes the corridor: a currency outside the FX table, a
//       network that does not carry the asset, a destination rail other than SEPA (EUR), ACH (USD)
//       or SWIFT (any fiat), or the same currency on both sides)
import { CAPABILITIES } from '../customer/rules/capabilities.js'
import { DomainError, type ErrorDetail } from '../errors.js'
import { CHAIN_TABLE, type Chain } from '../shared/chain/index.js'
import { CRYPTO_EXPONENTS, isKnownCurrency } from '../shared/money/index.js'
import type { PaymentRail } from '../shared/paymentRails.js'

/** The stablecoins the liquidity provider trades, on every chain that carries them. */
export const FX_STABLECOINS = ['USDC', 'USDT', 'USAT'] as const

/** The fiat currencies of the FX corridors: USD, EUR, GBP, MXN and every <CCY>_FX_PAYOUT currency. */
export const FX_FIAT_CURRENCIES: readonly string[] = [
  ...new Set(['USD', 'EUR', 'GBP', 'MXN', ...CAPABILITIES.filter((c) => c.endsWith('_FX_PAYOUT')).map((c) => c.slice(0, 3))]),
].sort()

/** The fiat rails money may come in on, per currency (spec: fast rails only; SEPA preferred for EUR). */
export const FX_SOURCE_RAILS: Readonly<Record<string, readonly PaymentRail[]>> = {
  EUR: ['SEPA', 'SEPA_INSTANT'],
  GBP: ['FASTER_PAYMENTS'],
}

/** The fiat rails a conversion pays out on, and the currencies each carries (SWIFT: any fiat). */
export const FX_DESTINATION_RAILS = ['SEPA', 'SWIFT', 'ACH'] as const
export type FxDestinationRail = (typeof FX_DESTINATION_RAILS)[number]

const DESTINATION_RAIL_CURRENCY: Readonly<Record<FxDestinationRail, string | undefined>> = { SEPA: 'EUR', ACH: 'USD', SWIFT: undefined }

export type FxSide = { kind: 'CRYPTO'; currency: string; network: Chain } | { kind: 'FIAT'; currency: string; rail: PaymentRail }

export type FxPair = { source: FxSide; destination: FxSide }

/** STABLECOIN when both sides are crypto; FIAT when either side is fiat (gated by fx_fiat_pairs_not_enabled). */
export type FxPairKind = 'STABLECOIN' | 'FIAT'

/** The pair's six flat fields, as the rate query and the quote body carry them. */
export type FlatPair = {
  sourceCurrency: string
  sourceNetwork?: Chain | undefined
  sourceRail?: PaymentRail | undefined
  destinationCurrency: string
  destinationNetwork?: Chain | undefined
  destinationRail?: PaymentRail | undefined
}

export const isCryptoCurrency = (currency: string): boolean => CRYPTO_EXPONENTS[currency] !== undefined

export const pairKind = (pair: FxPair): FxPairKind =>
  pair.source.kind === 'CRYPTO' && pair.destination.kind === 'CRYPTO' ? 'STABLECOIN' : 'FIAT'

const sideKey = (side: FxSide): string => `${side.currency}.${side.kind === 'CRYPTO' ? side.network : side.rail}`

/** A stable text key of the pair (`USDC.ETHEREUM>EUR.SEPA`): caches and logs. */
export const pairKey = (pair: FxPair): string => `${sideKey(pair.source)}>${sideKey(pair.destination)}`

/** The pair as its flat fields, each side with only the slot its kind uses. */
export function flatPair(pair: FxPair): FlatPair {
  const side = (s: FxSide, prefix: 'source' | 'destination') =>
    s.kind === 'CRYPTO' ? { [`${prefix}Network`]: s.network } : { [`${prefix}Rail`]: s.rail }
  return {
    sourceCurrency: pair.source.currency,
    destinationCurrency: pair.destination.currency,
    ...side(pair.source, 'source'),
    ...side(pair.destination, 'destination'),
  } as FlatPair
}

const badRequest = (code: string, message: string, details: ErrorDetail[]) => new DomainError('bad_request', code, message, details)

function shapeOf(prefix: 'source' | 'destination', currency: string, network?: Chain, rail?: PaymentRail): FxSide | ErrorDetail[] {
  if (isCryptoCurrency(currency)) {
    const problems: ErrorDetail[] = []
    if (network === undefined) problems.push({ field: `${prefix}Network`, message: `is required: ${currency} is a crypto asset` })
    if (rail !== undefined)
      problems.push({
        field: `${prefix}Rail`,
        message: `must be omitted: ${currency} is a crypto asset (give ${prefix}Network)`,
        value: rail,
      })
    return problems.length > 0 || network === undefined ? problems : { kind: 'CRYPTO', currency, network }
  }
  const problems: ErrorDetail[] = []
  if (rail === undefined) problems.push({ field: `${prefix}Rail`, message: `is required: ${currency} is a fiat currency` })
  if (network !== undefined)
    problems.push({ field: `${prefix}Network`, message: `must be omitted: ${currency} is fiat (give ${prefix}Rail)`, value: network })
  return problems.length > 0 || rail === undefined ? problems : { kind: 'FIAT', currency, rail }
}

const SOURCE_RAIL_HINT = 'Use SEPA or SEPA_INSTANT for EUR, FASTER_PAYMENTS for GBP'

function unsupported(message: string, field: string, value: string): DomainError {
  return new DomainError('not_found', 'fx_pair_unsupported', message, [{ field, message: 'no upstream quotes this corridor', value }])
}

function assertSupportedSide(side: FxSide, prefix: 'source' | 'destination'): void {
  if (side.kind === 'CRYPTO') {
    const asset = side.currency
    if (!(FX_STABLECOINS as readonly string[]).includes(asset))
      throw unsupported(`${asset} is not traded by any FX upstream`, `${prefix}Currency`, asset)
    if (!(CHAIN_TABLE[side.network].currencies as readonly string[]).includes(asset))
      throw unsupported(`${asset} is not carried on ${side.network}`, `${prefix}Network`, side.network)
    return
  }
  if (!FX_FIAT_CURRENCIES.includes(side.currency))
    throw unsupported(`${side.currency} is not traded by any FX upstream`, `${prefix}Currency`, side.currency)
  if (prefix === 'destination') {
    const rail = FX_DESTINATION_RAILS.find((r) => r === side.rail)
    const carried = rail === undefined ? undefined : DESTINATION_RAIL_CURRENCY[rail]
    if (rail === undefined || (carried !== undefined && carried !== side.currency))
      throw unsupported(
        `${side.currency} is not paid out on ${side.rail} (payout rails: SEPA for EUR, ACH for USD, SWIFT for any fiat)`,
        'destinationRail',
        side.rail,
      )
  }
}

/** The pair the six fields name, or the first rule it breaks (see the header for the order). */
export function checkPair(input: FlatPair): FxPair {
  for (const [field, currency] of [
    ['sourceCurrency', input.sourceCurrency],
    ['destinationCurrency', input.destinationCurrency],
  ] as const)
    if (!isKnownCurrency(currency)) throw unsupported(`${currency} is not a currency any FX upstream knows`, field, currency)
  const source = shapeOf('source', input.sourceCurrency, input.sourceNetwork, input.sourceRail)
  const destination = shapeOf('destination', input.destinationCurrency, input.destinationNetwork, input.destinationRail)
  const problems = [...(Array.isArray(source) ? source : []), ...(Array.isArray(destination) ? destination : [])]
  if (Array.isArray(source) || Array.isArray(destination))
    throw badRequest(
      'fx_pair_shape_invalid',
      'Each side takes a network when its currency is crypto and a rail when it is fiat, never both',
      problems,
    )
  if (source.kind === 'FIAT' && !(FX_SOURCE_RAILS[source.currency] ?? []).includes(source.rail))
    throw badRequest('fx_source_rail_not_supported', `${source.currency} cannot be converted from ${source.rail}: ${SOURCE_RAIL_HINT}`, [
      { field: 'sourceRail', message: SOURCE_RAIL_HINT, value: source.rail },
    ])
  assertSupportedSide(source, 'source')
  assertSupportedSide(destination, 'destination')
  if (source.currency === destination.currency)
    throw unsupported(`${source.currency} to ${source.currency} is not a conversion`, 'destinationCurrency', destination.currency)
  return { source, destination }
}
