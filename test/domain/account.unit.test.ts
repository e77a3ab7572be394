// The account aggregate, given/when/then: opening each kind, the status table (review, close),
// closing refused while funds or holds remain, funds only on active balance accounts, and credits
// idempotent by their cause (same amount: no-op; another amount: reference_reused).
import t from 'tap'
import { type AccountCommand, accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { toAccountResource } from '../../domain/account/resource.js'
import { spec } from './deciderSpec.js'

const ORG = 'org_01h00000000000000000000000'
const ACC = 'acc_01h00000000000000000000000'
const EBA = 'eba_01h00000000000000000000000'
const NOW = '2026-11-24T08:00:00.000Z'
const account = spec(accountDecider)
const scoped = { organizationId: ORG, accountId: ACC, now: NOW }

const usdOpened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    accountId: ACC,
    organizationId: ORG,
    customerId: 'cus_01h00000000000000000000000',
    kind: 'USD_BALANCE',
    type: 'INFINITE_BANK',
    status: 'ACTIVE',
    currencyCodes: ['USD'],
    paymentRails: ['ACH', 'WIRE', 'BALANCE'],
    holdsBalance: true,
    balanceSourceEligible: true,
    provider: 'SANDBOX',
    counterpartyId: null,
    metadata: { nickname: 'Ops' },
    details: { kind: 'USD_BALANCE' },
    at: NOW,
  },
}
const credit = (amountMinor: bigint, cause = 'ref_1'): AccountCommand => ({
  ...scoped,
  type: 'CreditFunds',
  cause,
  currency: 'USD',
  amountMinor,
})
const run = (events: AccountEvent[], ...commands: AccountCommand[]): AccountEvent[] => {
  let state = events.reduce(accountDecider.evolve, accountDecider.initialState())
  const out: AccountEvent[] = []
  for (const c of commands)
    for (const e of accountDecider.decide(c, state)) {
      out.push(e)
      state = accountDecider.evolve(state, e)
    }
  return out
}

t.test('opening an account records every field; a second open is refused', async (t) => {
  const { at: _at, status, accountId: _id, organizationId: _org, ...rest } = usdOpened.data
  const open: AccountCommand = { ...scoped, type: 'OpenAccount', status, account: rest }
  account.given([]).when(open).then(t, [usdOpened])
  account.given([usdOpened]).when(open).thenThrows(t, 'account_exists')
})

t.test('another organization sees no account', async (t) => {
  account
    .given([usdOpened])
    .when({ ...scoped, organizationId: 'org_01h00000000000000000000001', type: 'ActivateAccount' })
    .thenThrows(t, 'resource_not_found')
})

t.test('status table: IN_REVIEW to ACTIVE or CLOSED, ACTIVE to CLOSED, CLOSED final', async (t) => {
  const inReview: AccountEvent = { ...usdOpened, data: { ...usdOpened.data, status: 'IN_REVIEW' } }
  account
    .given([inReview])
    .when({ ...scoped, type: 'ActivateAccount' })
    .then(t, [{ type: 'AccountActivated', data: { accountId: ACC, organizationId: ORG, at: NOW } }])
  account
    .given([usdOpened])
    .when({ ...scoped, type: 'ActivateAccount' })
    .then(t, [])
  const closed: AccountEvent = { type: 'AccountClosed', data: { accountId: ACC, organizationId: ORG, reason: 'REVIEW_REJECTED', at: NOW } }
  account
    .given([inReview])
    .when({ ...scoped, type: 'CloseAccount', reason: 'REVIEW_REJECTED' })
    .then(t, [closed])
  account
    .given([inReview, closed])
    .when({ ...scoped, type: 'ActivateAccount' })
    .thenThrows(t, 'account_closed')
  account
    .given([inReview, closed])
    .when({ ...scoped, type: 'CloseAccount', reason: 'CLOSED_BY_CALLER' })
    .then(t, [])
  account.given([inReview]).when(credit(100n)).thenThrows(t, 'account_not_active')
  account.given([usdOpened, closed]).when(credit(100n)).thenThrows(t, 'account_closed')
})

t.test('closing is refused while the account holds funds or has holds in flight', async (t) => {
  const funded = run([usdOpened], credit(1_000n))
  account
    .given([usdOpened, ...funded])
    .when({ ...scoped, type: 'CloseAccount', reason: 'CLOSED_BY_CALLER' })
    .thenThrows(t, 'account_has_funds')
  const held = run([usdOpened, ...funded], { ...scoped, type: 'PlaceHold', holdId: 'hld_1', currency: 'USD', amountMinor: 1_000n })
  account
    .given([usdOpened, ...funded, ...held])
    .when({ ...scoped, type: 'CloseAccount', reason: 'CLOSED_BY_CALLER' })
    .thenThrows(t, 'account_has_pending_holds')
  const settled = run([usdOpened, ...funded, ...held], { ...scoped, type: 'SettleHold', holdId: 'hld_1' })
  account
    .given([usdOpened, ...funded, ...held, ...settled])
    .when({ ...scoped, type: 'CloseAccount', reason: 'CLOSED_BY_CALLER' })
    .thenMatches(t, [{ type: 'AccountClosed' }])
})

t.test('a credit replayed with its cause is a no-op; another amount under the same cause is refused', async (t) => {
  const first = run([usdOpened], credit(500n))
  t.equal(first.length, 1)
  account
    .given([usdOpened, ...first])
    .when(credit(500n))
    .then(t, [])
  account
    .given([usdOpened, ...first])
    .when(credit(501n))
    .thenThrows(t, 'reference_reused')
})

t.test('funds commands on an account without a balance are refused', async (t) => {
  const ebaOpened: AccountEvent = {
    type: 'AccountOpened',
    data: {
      ...usdOpened.data,
      accountId: EBA,
      kind: 'EXTERNAL_BANK',
      type: 'EXTERNAL_BANK',
      holdsBalance: false,
      balanceSourceEligible: false,
      details: {
        kind: 'EXTERNAL_BANK',
        accountOwnerName: 'Pat Owner',
        accountOwnerType: 'INDIVIDUAL',
        bankName: 'Chase',
        bankCountry: 'US',
        currency: 'USD',
        accountType: 'CHECKING',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        iban: null,
        bic: null,
        last4: '6789',
      },
    },
  }
  account
    .given([ebaOpened])
    .when({ ...scoped, accountId: EBA, type: 'CreditFunds', cause: 'x', currency: 'USD', amountMinor: 1n })
    .thenThrows(t, 'account_holds_no_balance')
  const state = accountDecider.evolve(accountDecider.initialState(), ebaOpened)
  if (state.status === 'none') throw new Error('opened')
  const resource = toAccountResource(state)
  t.equal(resource.accountNumber, '****6789', 'the account number is masked on read')
  t.notOk(JSON.stringify(resource).includes('000123456789'), 'the full number appears nowhere in the resource')
})
