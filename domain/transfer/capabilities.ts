// Who may send a transfer: an APPROVED customer that requested the capability for each rail the
// route uses (requestedCapabilities, the customers issue). The map from rail to capability:
//   pay-in  ACH → USD_ACH_PAYIN, WIRE/FEDWIRE → USD_WIRE_PAYIN, SWIFT → SWIFT_PAYIN, a chain → STABLECOIN_PAYIN
//   payout  ACH → USD_ACH_PAYOUT, WIRE/FEDWIRE → USD_WIRE_PAYOUT, SWIFT → SWIFT_PAYOUT, a chain → STABLECOIN_PAYOUT,
//           a fiat payout in another currency than USD → <CCY>_FX_PAYOUT
//   a USD balance on either side → USD_BALANCE; one stablecoin to another → STABLECOIN_SWAPS
// Other rails (SEPA pay-ins, internal stablecoin balances) need no capability of the spec's list.
import type { Customer } from '../customer/state.js'
import { type ErrorDetail, invalid } from '../errors.js'
import type { RouteSide } from './route.js'

const PAYIN: Readonly<Record<string, string>> = {
  ACH: 'USD_ACH_PAYIN',
  ACH_SAME_DAY: 'USD_ACH_PAYIN',
  WIRE: 'USD_WIRE_PAYIN',
  FEDWIRE: 'USD_WIRE_PAYIN',
  SWIFT: 'SWIFT_PAYIN',
}
const PAYOUT: Readonly<Record<string, string>> = {
  ACH: 'USD_ACH_PAYOUT',
  ACH_SAME_DAY: 'USD_ACH_PAYOUT',
  WIRE: 'USD_WIRE_PAYOUT',
  FEDWIRE: 'USD_WIRE_PAYOUT',
  SWIFT: 'SWIFT_PAYOUT',
}

export function requiredCapabilities(source: RouteSide, destination: RouteSide): string[] {
  const needed = new Set<string>()
  if (source.kind === 'FIAT_RAIL' && PAYIN[source.rail]) needed.add(PAYIN[source.rail]!)
  if (source.kind === 'CHAIN') needed.add('STABLECOIN_PAYIN')
  if (destination.kind === 'FIAT_RAIL') {
    if (PAYOUT[destination.rail]) needed.add(PAYOUT[destination.rail]!)
    if (destination.currency !== 'USD') needed.add(`${destination.currency}_FX_PAYOUT`)
  }
  if (destination.kind === 'CHAIN') needed.add('STABLECOIN_PAYOUT')
  for (const side of [source, destination]) if (side.kind === 'BALANCE' && side.currency === 'USD') needed.add('USD_BALANCE')
  const crypto = (side: RouteSide) => side.kind === 'CHAIN' || (side.kind === 'BALANCE' && side.assetClass === 'CRYPTO')
  if (crypto(source) && crypto(destination) && source.currency !== destination.currency) needed.add('STABLECOIN_SWAPS')
  return [...needed]
}

export type SenderFacts = { customerId: string; status: string; requestedCapabilities: readonly string[] }

/** What assertMaySend reads of a customer: its status and the capabilities it requested. */
export function senderFactsOf(c: Customer): SenderFacts {
  const requested = c.type === 'INDIVIDUAL' ? c.individual.requestedCapabilities : c.business.requestedCapabilities
  return { customerId: c.id, status: c.status, requestedCapabilities: requested ?? [] }
}

/** 422 customer_not_approved, or 422 customer_capability_missing naming every missing capability. */
export function assertMaySend(sender: SenderFacts, source: RouteSide, destination: RouteSide): void {
  if (sender.status !== 'APPROVED')
    throw invalid(
      'customer_not_approved',
      `Customer ${sender.customerId} is ${sender.status}; only an APPROVED customer can send transfers`,
      [{ field: 'sourceCustomerId', message: 'must be an APPROVED customer', value: sender.customerId }],
    )
  const missing = requiredCapabilities(source, destination).filter((c) => !sender.requestedCapabilities.includes(c))
  if (missing.length > 0)
    throw invalid(
      'customer_capability_missing',
      `Customer ${sender.customerId} lacks ${missing.join(', ')} for this route`,
      missing.map((c): ErrorDetail => ({ field: 'requestedCapabilities', message: `the customer must have requested ${c}`, value: c })),
    )
}
