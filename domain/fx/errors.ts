// The FX error codes of the spec's error table, one constructor each. Not-executable errors (422)
// carry `hint`; on quote creation they add `limits` and `requested` when known (spec: Quote
// not-executable body), never on the rate operation.
import { DomainError, type ErrorExtra } from '../errors.js'
import { type FxPair, pairKey } from './pair.js'

export const fxRatesNotEnabled = () =>
  new DomainError('forbidden', 'fx_rates_not_enabled', 'Indicative rates are not enabled for this organization; ask us to enable them')

export const fxFiatPairsNotEnabled = () =>
  new DomainError('forbidden', 'fx_fiat_pairs_not_enabled', 'Pairs with a fiat side are not enabled for this organization')

export const fxNotEnabledForPair = (pair: FxPair) =>
  new DomainError('conflict', 'fx_not_enabled_for_pair', `FX is not enabled for this organization on ${pairKey(pair).replace('>', ' to ')}`)

export const fxRatesOnBehalfOfRequired = () =>
  new DomainError('bad_request', 'fx_rates_on_behalf_of_required', 'A rate on a pair with a fiat side is given for a customer', [
    { field: 'onBehalfOf', message: 'is required when either side is fiat' },
  ])

export const fxTemporarilyUnavailable = (extra: ErrorExtra = {}) =>
  new DomainError('validation', 'fx_quote_temporarily_unavailable', 'The liquidity provider is not quoting this pair right now', [], {
    hint: 'Retry in a minute; nothing was reserved',
    ...extra,
  })

export const fxCapacityExhausted = (extra: ErrorExtra = {}) =>
  new DomainError('validation', 'fx_quote_capacity_exhausted', 'The corridor has no capacity left right now', [], {
    hint: 'Capacity recovers over time: retry later, or quote a smaller amount',
    ...extra,
  })
