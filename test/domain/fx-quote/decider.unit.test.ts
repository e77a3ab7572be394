// The FX quote decider, given/when/then: a quote priced firm for 60 seconds, accepted once (410
// fx_quote_not_pending after, 410 fx_quote_expired past expiresAt), expired by its timer unless
// accepted; and the corridor limits priceQuote holds it to.
import t from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { type FxQuoteCommand, fxQuoteDecider } from '../../../domain/fx-quote/decider.js'
import type { FxQuoteEvent } from '../../../domain/fx-quote/events.js'
import { priceQuote } from '../../../domain/fx-quote/priceQuote.js'
import { corridorLimits } from '../../../domain/fx/corridorLimits.js'
import { checkPair } from '../../../domain/fx/pair.js'
import { referenceRate } from '../../../domain/rates/referenceRates.js'
import { spec } from '../deciderSpec.js'

const quote = spec(fxQuoteDecider)
const now = '2026-11-28T10:00:00.000Z'
const pair = checkPair({ sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'EUR', destinationRail: 'SEPA' })
const mid = { mid: referenceRate('USDC', 'EUR')!, provider: 'SANDBOX_REFERENCE', asOf: now }
const ids = { organizationId: 'org_a', quoteId: 'fxq_1' }
const create: FxQuoteCommand = {
  type: 'CreateFxQuote',
  ...ids,
  customerId: 'cus_1',
  pair,
  amount: { side: 'SOURCE', minor: 100_000_000n },
  mid,
  spreadBps: 25,
  limits: corridorLimits('USDC', 'sandbox'),
  now,
}
const created = fxQuoteDecider.decide(create, fxQuoteDecider.initialState())
const accepted: FxQuoteEvent = { type: 'FxQuoteAccepted', data: { ...ids, tradeId: 'tfr_1', acceptedAt: now } }

t.test('a quote: priced, firm for 60 seconds', async (t) => {
  t.match(created, [
    {
      type: 'FxQuoteCreated',
      data: {
        pair: { sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'EUR', destinationRail: 'SEPA' },
        sourceAmountMinor: '100000000',
        feeMinor: '250000',
        destinationAmountMinor: '9177',
        rate: '0.9177',
        referenceRate: '0.92',
        expiresAt: '2026-11-28T10:01:00.000Z',
      },
    },
  ])
  quote.given(created).when(create).thenThrows(t, 'resource_already_exists')
})

t.test('accepted once; gone after acceptance or expiry', async (t) => {
  quote
    .given(created)
    .when({ type: 'AcceptFxQuote', ...ids, tradeId: 'tfr_1', now })
    .then(t, [accepted])
  quote
    .given([...created, accepted])
    .when({ type: 'AcceptFxQuote', ...ids, tradeId: 'tfr_2', now })
    .thenThrows(t, 'fx_quote_not_pending')
  quote
    .given(created)
    .when({ type: 'AcceptFxQuote', ...ids, tradeId: 'tfr_1', now: '2026-11-28T10:01:00.000Z' })
    .thenThrows(t, 'fx_quote_expired', 'at expiresAt the quote is no longer firm')
  quote
    .given([])
    .when({ type: 'AcceptFxQuote', ...ids, tradeId: 'tfr_1', now })
    .thenThrows(t, 'resource_not_found')
  try {
    fxQuoteDecider.decide({ type: 'AcceptFxQuote', ...ids, tradeId: 'tfr_2', now }, quote.given([...created, accepted]).state)
  } catch (error) {
    t.equal((error as DomainError).kind, 'gone', 'a 410')
  }
})

t.test('the timer expires a pending quote once its time came, and nothing else', async (t) => {
  const at = '2026-11-28T10:01:00.000Z'
  quote
    .given(created)
    .when({ type: 'ExpireFxQuote', ...ids, now: at })
    .then(t, [{ type: 'FxQuoteExpired', data: { ...ids, customerId: 'cus_1', expiresAt: at, expiredAt: at } }])
  quote
    .given(created)
    .when({ type: 'ExpireFxQuote', ...ids, now })
    .then(t, [], 'not before expiresAt')
  quote
    .given([...created, accepted])
    .when({ type: 'ExpireFxQuote', ...ids, now: at })
    .then(t, [], 'an accepted quote stays accepted')
  quote
    .given(created)
    .when({ type: 'AcceptFxQuote', ...ids, tradeId: 't', now: at })
    .thenThrows(t, 'fx_quote_expired')
})

t.test('the corridor limits, with the limits and the request in the refusal', async (t) => {
  const limits = corridorLimits('USDC', 'sandbox')
  const refusal = (minor: bigint, side: 'SOURCE' | 'DESTINATION' = 'SOURCE') => {
    try {
      priceQuote(pair, { side, minor }, mid, 25, limits)
    } catch (error) {
      return error as DomainError
    }
    return undefined
  }
  t.match(refusal(999_999n), {
    code: 'fx_quote_amount_too_small',
    extra: { limits: { sourceCurrency: 'USDC', min: '1000000', max: '10000000000' }, requested: { currency: 'USDC', amount: '999999' } },
  })
  t.equal(refusal(1_000_000n), undefined, 'the minimum itself is quoted')
  t.equal(refusal(10_000_000_000n), undefined, 'and the maximum')
  t.match(refusal(10_000_000_001n), { code: 'fx_quote_amount_too_large' })
  t.match(refusal(9_300_000n, 'DESTINATION'), {
    code: 'fx_quote_amount_too_large',
    extra: { requested: { currency: 'EUR', side: 'DESTINATION' } },
  })
  t.match(refusal(1n, 'DESTINATION'), { code: 'fx_quote_amount_too_small' }, 'a cent of EUR needs less than the minimum')
})
