// Where a transfer's money comes from and goes to, and what that makes it: the flow (spec's enum)
// derived from the two sides, and the legs the route is planned as. Pure: the command handler reads
// the accounts a side names and gives their facts here.
//
// A side is a balance account of the service (USD `acc_` is fiat, a stablecoin `inw_` is crypto),
// a fiat rail (ACH, WIRE, SEPA, ...) or a chain (ETHEREUM, SOLANA, ...). Flows:
//   balance → balance, one currency: INTERNAL; two currencies: FX
//   fiat → fiat, one currency: FIAT_TO_FIAT; two: FIAT_TO_CRYPTO_TO_FIAT (converted through USDC)
//   fiat → crypto: FIAT_TO_CRYPTO; crypto → fiat: CRYPTO_TO_FIAT; crypto → crypto: CRYPTO_TO_CRYPTO
//   FEE_CRYPTO, REFUND_CRYPTO, REFUND_FIAT: created by the platform only (fee sweeps, refunds).
import { z } from 'zod'
import { type ErrorDetail, invalid } from '../errors.js'
import { CHAIN_TABLE, type Chain } from '../shared/chain/index.js'
import { type PaymentRail } from '../shared/paymentRails.js'
import { railCarries } from '../rails/index.js'

export const TRANSFER_FLOWS = [
  'CRYPTO_TO_CRYPTO',
  'CRYPTO_TO_FIAT',
  'FIAT_TO_CRYPTO',
  'FIAT_TO_FIAT',
  'FIAT_TO_CRYPTO_TO_FIAT',
  'FX',
  'INTERNAL',
  'FEE_CRYPTO',
  'REFUND_CRYPTO',
  'REFUND_FIAT',
] as const
export type TransferFlow = (typeof TRANSFER_FLOWS)[number]
export const transferFlowSchema = z.enum(TRANSFER_FLOWS).describe('Transfer flow, derived from the source and the destination')
export const SYSTEM_FLOWS: readonly TransferFlow[] = ['FEE_CRYPTO', 'REFUND_CRYPTO', 'REFUND_FIAT']

/** The stablecoin a cross-currency fiat route converts through. */
export const BRIDGE_ASSET = 'USDC'

export type AssetClass = 'FIAT' | 'CRYPTO'

/** One side as the route sees it: a balance account, a fiat rail or a chain, and its currency. */
export type RouteSide =
  | { kind: 'BALANCE'; accountId: string; currency: string; assetClass: AssetClass; chain: Chain | null }
  | { kind: 'FIAT_RAIL'; rail: PaymentRail; currency: string }
  | { kind: 'CHAIN'; chain: Chain; currency: string }

export const assetClassOf = (side: RouteSide): AssetClass =>
  side.kind === 'BALANCE' ? side.assetClass : side.kind === 'CHAIN' ? 'CRYPTO' : 'FIAT'

/** The rail as the spec's paymentRail field shows it: BALANCE, the fiat rail, or the chain's name. */
export const paymentRailOf = (side: RouteSide): string =>
  side.kind === 'BALANCE' ? 'BALANCE' : side.kind === 'CHAIN' ? side.chain : side.rail

export function deriveFlow(source: RouteSide, destination: RouteSide): TransferFlow {
  const sameCurrency = source.currency === destination.currency
  if (source.kind === 'BALANCE' && destination.kind === 'BALANCE') return sameCurrency ? 'INTERNAL' : 'FX'
  const from = assetClassOf(source)
  const to = assetClassOf(destination)
  if (from === 'FIAT' && to === 'FIAT') return sameCurrency ? 'FIAT_TO_FIAT' : 'FIAT_TO_CRYPTO_TO_FIAT'
  if (from === 'FIAT') return 'FIAT_TO_CRYPTO'
  return to === 'FIAT' ? 'CRYPTO_TO_FIAT' : 'CRYPTO_TO_CRYPTO'
}

export const LEG_TYPES = [
  'BALANCE_DEBIT',
  'DEPOSIT_FIAT',
  'DEPOSIT_CRYPTO',
  'CONVERT',
  'PAYOUT_FIAT',
  'PAYOUT_CRYPTO',
  'BALANCE_CREDIT',
] as const
export type LegType = (typeof LEG_TYPES)[number]
export const legTypeSchema = z.enum(LEG_TYPES).describe('What a leg does')

export type PlannedLeg = { type: LegType; inputCurrency: string; outputCurrency: string; inputRail: string; outputRail: string }

/** The legs: take the money in, convert (through USDC between two fiat currencies), pay it out. */
export function planLegs(source: RouteSide, destination: RouteSide): PlannedLeg[] {
  const inRail = paymentRailOf(source)
  const outRail = paymentRailOf(destination)
  const first: LegType = source.kind === 'BALANCE' ? 'BALANCE_DEBIT' : source.kind === 'CHAIN' ? 'DEPOSIT_CRYPTO' : 'DEPOSIT_FIAT'
  const last: LegType = destination.kind === 'BALANCE' ? 'BALANCE_CREDIT' : destination.kind === 'CHAIN' ? 'PAYOUT_CRYPTO' : 'PAYOUT_FIAT'
  const legs: PlannedLeg[] = [
    { type: first, inputCurrency: source.currency, outputCurrency: source.currency, inputRail: inRail, outputRail: inRail },
  ]
  if (source.currency !== destination.currency) {
    const throughBridge = assetClassOf(source) === 'FIAT' && assetClassOf(destination) === 'FIAT'
    if (throughBridge) {
      legs.push({ type: 'CONVERT', inputCurrency: source.currency, outputCurrency: BRIDGE_ASSET, inputRail: inRail, outputRail: 'BALANCE' })
      legs.push({
        type: 'CONVERT',
        inputCurrency: BRIDGE_ASSET,
        outputCurrency: destination.currency,
        inputRail: 'BALANCE',
        outputRail: outRail,
      })
    } else
      legs.push({
        type: 'CONVERT',
        inputCurrency: source.currency,
        outputCurrency: destination.currency,
        inputRail: inRail,
        outputRail: outRail,
      })
  }
  legs.push({
    type: last,
    inputCurrency: destination.currency,
    outputCurrency: destination.currency,
    inputRail: outRail,
    outputRail: outRail,
  })
  return legs
}

/** Every reason the two sides cannot make a route, at once (an empty list: they can). */
export function routeProblems(source: RouteSide, destination: RouteSide): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  const sideProblem = (field: string, side: RouteSide) => {
    if (side.kind === 'CHAIN' && !(CHAIN_TABLE[side.chain].currencies as readonly string[]).includes(side.currency))
      problems.push({ field: `${field}.currency`, message: `${side.chain} does not carry ${side.currency}`, value: side.currency })
    if (side.kind === 'FIAT_RAIL' && !railCarries(side.rail, side.currency))
      problems.push({ field: `${field}.currency`, message: `${side.rail} does not carry ${side.currency}`, value: side.currency })
  }
  sideProblem('source', source)
  sideProblem('destination', destination)
  if (source.kind === 'BALANCE' && destination.kind === 'BALANCE' && source.accountId === destination.accountId)
    problems.push({ field: 'destination.accountId', message: 'must differ from the source account', value: destination.accountId })
  // BTC is carried, not converted: a route in or out of BTC keeps BTC on both sides.
  if ((source.currency === 'BTC') !== (destination.currency === 'BTC'))
    problems.push({
      field: 'destination.currency',
      message: 'BTC is not converted: BTC routes carry BTC on both sides',
      value: destination.currency,
    })
  return problems
}

export function assertRoute(source: RouteSide, destination: RouteSide): void {
  const problems = routeProblems(source, destination)
  if (problems.length > 0)
    throw invalid(
      'route_not_supported',
      `No route from ${paymentRailOf(source)} ${source.currency} to ${paymentRailOf(destination)} ${destination.currency}`,
      problems,
    )
}
