// Every corridor the liquidity provider quotes (the pair list before an organization's switches),
// and what a customer must have requested to use one: the transfer rules' capabilities for the same
// sides (domain/transfer/capabilities.ts), so a pair is offered exactly when a transfer along it
// would be allowed.
import { CHAINS, CHAIN_TABLE } from '../shared/chain/index.js'
import { type SenderFacts, requiredCapabilities } from '../transfer/capabilities.js'
import type { RouteSide } from '../transfer/route.js'
import { FX_DESTINATION_RAILS, FX_FIAT_CURRENCIES, FX_SOURCE_RAILS, FX_STABLECOINS, type FxPair, type FxSide } from './pair.js'

function cryptoSides(): FxSide[] {
  return FX_STABLECOINS.flatMap((currency) =>
    CHAINS.filter((chain) => (CHAIN_TABLE[chain].currencies as readonly string[]).includes(currency)).map((network): FxSide => ({
      kind: 'CRYPTO',
      currency,
      network,
    })),
  )
}

function fiatSources(): FxSide[] {
  return Object.entries(FX_SOURCE_RAILS).flatMap(([currency, rails]) => rails.map((rail): FxSide => ({ kind: 'FIAT', currency, rail })))
}

function fiatDestinations(): FxSide[] {
  const sides: FxSide[] = [
    { kind: 'FIAT', currency: 'USD', rail: 'ACH' },
    { kind: 'FIAT', currency: 'EUR', rail: 'SEPA' },
  ]
  for (const currency of FX_FIAT_CURRENCIES) sides.push({ kind: 'FIAT', currency, rail: 'SWIFT' })
  return sides.filter((s) => s.kind === 'FIAT' && (FX_DESTINATION_RAILS as readonly string[]).includes(s.rail))
}

/** Every supported pair, stablecoin sources first, in a fixed order (currency, then network or rail). */
export const ALL_CORRIDORS: readonly FxPair[] = (() => {
  const sources = [...cryptoSides(), ...fiatSources()]
  const destinations = [...cryptoSides(), ...fiatDestinations()]
  return sources.flatMap((source) =>
    destinations.filter((destination) => destination.currency !== source.currency).map((destination) => ({ source, destination })),
  )
})()

/** A side as the transfer rules see it (a chain or a fiat rail). */
export const routeSide = (side: FxSide): RouteSide =>
  side.kind === 'CRYPTO'
    ? { kind: 'CHAIN', chain: side.network, currency: side.currency }
    : { kind: 'FIAT_RAIL', rail: side.rail, currency: side.currency }

/** The capabilities a customer needs for the pair (the same as a transfer between the two sides). */
export const pairCapabilities = (pair: FxPair): string[] => requiredCapabilities(routeSide(pair.source), routeSide(pair.destination))

/** Whether the customer may convert along the pair: APPROVED, with every capability the pair needs. */
export function customerMayUse(customer: SenderFacts, pair: FxPair): boolean {
  return customer.status === 'APPROVED' && pairCapabilities(pair).every((c) => customer.requestedCapabilities.includes(c))
}
