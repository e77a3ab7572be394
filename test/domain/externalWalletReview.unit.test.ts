// The external wallet review: the sandbox trigger closes, everything else (and production) activates;
// a wallet no longer in review is left as it is.
import t from 'tap'
import { accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { externalWalletReviewDecider, reviewExternalWallet } from '../../domain/account/externalWalletReview.js'
import { SANDBOX_REJECTED_WALLET_ADDRESSES } from '../../domain/shared/chain/index.js'
import { spec } from './deciderSpec.js'

const now = '2026-11-24T10:00:00.000Z'
const [burn] = SANDBOX_REJECTED_WALLET_ADDRESSES.EVM
const good = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

const opened = (walletAddress: string): AccountEvent => ({
  type: 'AccountOpened',
  data: {
    accountId: 'ewa_1',
    organizationId: 'org_a',
    customerId: 'cus_1',
    kind: 'EXTERNAL_WALLET',
    type: 'EXTERNAL_WALLET',
    status: 'IN_REVIEW',
    currencyCodes: ['USDC'],
    paymentRails: [],
    holdsBalance: false,
    balanceSourceEligible: false,
    provider: 'SELF_HOSTED',
    counterpartyId: 'cp_1',
    metadata: {},
    details: {
      kind: 'EXTERNAL_WALLET',
      walletAddress,
      addressType: 'EVM',
      chains: ['ETHEREUM'],
      currencies: ['USDC'],
      custodyType: 'SELF_HOSTED',
      isThirdParty: false,
      externalReference: null,
    },
    at: now,
  },
})
const review = { type: 'ReviewExternalWallet' as const, organizationId: 'org_a', accountId: 'ewa_1', environment: 'sandbox' as const, now }
const reviewed = spec(externalWalletReviewDecider)

t.test('the outcome', async (t) => {
  t.equal(reviewExternalWallet('sandbox', { addressType: 'EVM', walletAddress: good }), 'ACTIVE')
  for (const [addressType, addresses] of Object.entries(SANDBOX_REJECTED_WALLET_ADDRESSES))
    for (const walletAddress of addresses) {
      t.equal(reviewExternalWallet('sandbox', { addressType, walletAddress }), 'CLOSED', `sandbox ${walletAddress}`)
      t.equal(reviewExternalWallet('production', { addressType, walletAddress }), 'ACTIVE', `production ${walletAddress}`)
    }
})

t.test('the review decides the account’s own activate or close, once', async (t) => {
  reviewed
    .given([opened(good)])
    .when(review)
    .then(t, [{ type: 'AccountActivated', data: { accountId: 'ewa_1', organizationId: 'org_a', at: now } }])
  reviewed
    .given([opened(burn)])
    .when(review)
    .then(t, [{ type: 'AccountClosed', data: { accountId: 'ewa_1', organizationId: 'org_a', reason: 'REVIEW_REJECTED', at: now } }])
  reviewed
    .given([opened(burn)])
    .when({ ...review, environment: 'production' })
    .thenMatches(t, [{ type: 'AccountActivated' }])
  const activated = accountDecider.decide(
    { type: 'ActivateAccount', organizationId: 'org_a', accountId: 'ewa_1', now },
    reviewed.given([opened(good)]).state,
  )
  reviewed
    .given([opened(good), ...activated])
    .when(review)
    .then(t, [], 'already reviewed: nothing')
  const closed = accountDecider.decide(
    { type: 'CloseAccount', organizationId: 'org_a', accountId: 'ewa_1', now, reason: 'CLOSED_BY_CALLER' },
    reviewed.given([opened(good)]).state,
  )
  reviewed
    .given([opened(good), ...closed])
    .when(review)
    .then(t, [], 'closed meanwhile: stays closed')
  reviewed.given([]).when(review).then(t, [], 'no account: nothing')
})
