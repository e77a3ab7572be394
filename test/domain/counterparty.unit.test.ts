// The counterparty decider, the match key and the match claim, given/when/then.
import t from 'tap'
import { type CounterpartyCommand, counterpartyDecider } from '../../domain/counterparty/decider.js'
import type { CounterpartyEvent } from '../../domain/counterparty/events.js'
import { type ClaimMatch, matchClaimDecider } from '../../domain/match-claim/decider.js'
import type { MatchClaimEvent } from '../../domain/match-claim/events.js'
import { counterpartyMatchKey, normalizeName, normalizePostalCode } from '../../domain/counterparty/matchKey.js'
import { spec } from './deciderSpec.js'

const now = '2026-11-24T10:00:00.000Z'
const later = '2026-11-24T11:00:00.000Z'
const address = { addressLine1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' as const }
const customer = { exists: true as const, organizationId: 'org_a', archived: false, erased: false }
const createCmd: Extract<CounterpartyCommand, { type: 'CreateCounterparty' }> = {
  type: 'CreateCounterparty',
  organizationId: 'org_a',
  counterpartyId: 'cp_1',
  now,
  customerId: 'cus_1',
  customer,
  name: 'Jane Payee',
  beneficiaryType: 'INDIVIDUAL',
  address,
  isThirdParty: true,
  metadata: { ref: 'x' },
}
const created: CounterpartyEvent = {
  type: 'CounterpartyCreated',
  data: {
    counterpartyId: 'cp_1',
    organizationId: 'org_a',
    customerId: 'cus_1',
    name: 'Jane Payee',
    beneficiaryType: 'INDIVIDUAL',
    address,
    isThirdParty: true,
    metadata: { ref: 'x' },
    createdAt: now,
  },
}
const deleteCmd: CounterpartyCommand = {
  type: 'DeleteCounterparty',
  organizationId: 'org_a',
  counterpartyId: 'cp_1',
  now: later,
  onBehalfOf: undefined,
  inUse: false,
}
const deleted: CounterpartyEvent = { type: 'CounterpartyDeleted', data: { counterpartyId: 'cp_1', deletedAt: later } }
const counterparty = spec(counterpartyDecider)

t.test('create: for a customer of the organization that is neither archived nor erased', async (t) => {
  counterparty.given([]).when(createCmd).then(t, [created])
  counterparty.given([created]).when(createCmd).thenThrows(t, 'resource_already_exists')
  counterparty
    .given([])
    .when({ ...createCmd, customer: { exists: false } })
    .thenThrows(t, 'resource_not_found')
  counterparty
    .given([])
    .when({ ...createCmd, customer: { ...customer, organizationId: 'org_b' } })
    .thenThrows(t, 'resource_not_found', "another organization's customer is a missing one")
  counterparty
    .given([])
    .when({ ...createCmd, customer: { ...customer, archived: true } })
    .thenThrows(t, 'customer_archived')
  counterparty
    .given([])
    .when({ ...createCmd, customer: { ...customer, erased: true } })
    .thenThrows(t, 'customer_erased')
})

t.test('delete: refused while in use; unknown, foreign and out-of-scope ones are missing', async (t) => {
  counterparty.given([created]).when(deleteCmd).then(t, [deleted])
  counterparty
    .given([created])
    .when({ ...deleteCmd, inUse: true })
    .thenThrows(t, 'counterparty_in_use')
  counterparty.given([]).when(deleteCmd).thenThrows(t, 'resource_not_found')
  counterparty.given([created, deleted]).when(deleteCmd).thenThrows(t, 'resource_not_found', 'deleted twice')
  counterparty
    .given([created])
    .when({ ...deleteCmd, organizationId: 'org_b' })
    .thenThrows(t, 'resource_not_found')
  counterparty
    .given([created])
    .when({ ...deleteCmd, onBehalfOf: 'cus_2' })
    .thenThrows(t, 'resource_not_found')
  counterparty
    .given([created])
    .when({ ...deleteCmd, onBehalfOf: 'cus_1' })
    .then(t, [deleted])
  t.match(counterparty.given([created, deleted]).state, { status: 'deleted', updatedAt: later, createdAt: now })
})

t.test('match key: one per beneficiary, whatever the case, width and spacing', async (t) => {
  const base = { organizationId: 'org_a', customerId: 'cus_1', isThirdParty: true as const, beneficiaryType: 'INDIVIDUAL' as const }
  const key = (name: string, postalCode: string, over: object = {}) =>
    counterpartyMatchKey({ ...base, name, address: { country: 'GB', postalCode }, ...over })
  t.equal(normalizeName('  Jane \t  PAYEE '), 'jane payee')
  t.equal(normalizeName('Ｊａｎｅ'), 'jane', 'full-width letters')
  t.equal(normalizePostalCode('sw1a-2aa'), 'SW1A2AA')
  t.equal(key('Jane Payee', 'SW1A 2AA'), key(' jane  payee', 'sw1a2aa'))
  t.not(key('Jane Payee', 'SW1A 2AA'), key('Jane Payer', 'SW1A 2AA'), 'another name')
  t.not(key('Jane Payee', 'SW1A 2AA'), key('Jane Payee', 'SW1A 2AB'), 'another postal code')
  t.not(key('Jane Payee', 'SW1A 2AA'), key('Jane Payee', 'SW1A 2AA', { beneficiaryType: 'BUSINESS' }), 'another type')
  t.not(key('Jane Payee', 'SW1A 2AA'), key('Jane Payee', 'SW1A 2AA', { customerId: 'cus_2' }), 'another customer')
  const self = counterpartyMatchKey({ organizationId: 'org_a', customerId: 'cus_1', isThirdParty: false })
  t.not(self, key('Jane Payee', 'SW1A 2AA'))
  t.match(self, /^mk_[0-9a-f]{64}$/, 'a digest: the key names a stream without carrying the name')
})

t.test('match claim: only the claim that read the current state lands', async (t) => {
  const claim: ClaimMatch = {
    type: 'ClaimMatch',
    matchKey: 'k',
    organizationId: 'org_a',
    customerId: 'cus_1',
    claimedId: 'cp_1',
    replacing: null,
    now,
  }
  const claimed = (claimedId: string, replacing: string | null): MatchClaimEvent => ({
    type: 'MatchClaimed',
    data: { matchKey: 'k', organizationId: 'org_a', customerId: 'cus_1', claimedId, replacing, claimedAt: now },
  })
  const match = spec(matchClaimDecider)
  match
    .given([])
    .when(claim)
    .then(t, [claimed('cp_1', null)])
  match
    .given([claimed('cp_0', null)])
    .when(claim)
    .then(t, [], 'a concurrent first claim won: nothing')
  match
    .given([claimed('cp_0', null)])
    .when({ ...claim, replacing: 'cp_0' })
    .then(t, [claimed('cp_1', 'cp_0')], 'a deleted claim is replaced')
  match
    .given([claimed('cp_0', null), claimed('cp_2', 'cp_0')])
    .when({ ...claim, replacing: 'cp_0' })
    .then(t, [], 'already replaced by another')
})
