// The account snapshot: a balance account's state round-trips through JSON text exactly (funds,
// remembered credits, metadata); accounts without a balance (an external bank account, whose
// details hold sealed numbers) are never snapshotted; bad JSON is refused.
import t from 'tap'
import { accountSnapshot } from '../../domain/account/accountSnapshot.js'
import { type AccountCommand, type AccountState, accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'

const ORG = 'org_01h00000000000000000000000'
const ACC = 'acc_01h00000000000000000000000'
const NOW = '2026-11-24T08:00:00.000Z'
const scoped = { organizationId: ORG, accountId: ACC, now: NOW }

function run(state: AccountState, commands: AccountCommand[]): AccountState {
  for (const c of commands) state = accountDecider.decide(c, state).reduce(accountDecider.evolve, state)
  return state
}

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    accountId: ACC,
    organizationId: ORG,
    customerId: null,
    kind: 'USD_BALANCE',
    type: 'INFINITE_BANK',
    status: 'ACTIVE',
    currencyCodes: ['USD'],
    paymentRails: ['ACH', 'BALANCE'],
    holdsBalance: true,
    balanceSourceEligible: false,
    provider: 'SANDBOX_BANK',
    counterpartyId: null,
    metadata: { nickname: 'Ops', tags: ['a', 'b'] },
    details: { kind: 'USD_BALANCE' },
    at: NOW,
  },
}

t.test('a busy balance account round-trips through JSON text', async (t) => {
  const commands: AccountCommand[] = []
  for (let i = 0; i < 50; i++)
    commands.push({ ...scoped, type: 'CreditFunds', cause: `dep_${i}`, currency: 'USD', amountMinor: BigInt(1_000 + i) })
  for (let i = 0; i < 30; i++) commands.push({ ...scoped, type: 'PlaceHold', holdId: `hld_${i}`, currency: 'USD', amountMinor: 10n })
  for (let i = 0; i < 10; i++) commands.push({ ...scoped, type: 'SettleHold', holdId: `hld_${i}` })
  for (let i = 10; i < 15; i++) commands.push({ ...scoped, type: 'ReleaseHold', holdId: `hld_${i}` })
  commands.push({ ...scoped, type: 'ReturnCredit', cause: 'dep_3' })
  const state = run(accountDecider.evolve(accountDecider.initialState(), opened), commands)
  const json = accountSnapshot.encode(state)
  t.ok(json, 'a balance account is snapshotted')
  const back = accountSnapshot.decode(JSON.parse(JSON.stringify(json)))
  t.same(back, state, 'decode(encode(state)) is the state')
  // And it decides the same afterwards: a replayed credit is still a no-op, a returned one refused again.
  t.same(accountDecider.decide({ ...scoped, type: 'CreditFunds', cause: 'dep_7', currency: 'USD', amountMinor: 1_007n }, back), [])
  t.throws(() => accountDecider.decide({ ...scoped, type: 'ReturnCredit', cause: 'dep_3' }, back), { code: 'credit_already_returned' })
})

t.test('no snapshot for accounts without a balance; bad JSON refused', async (t) => {
  const bank = accountDecider.evolve(accountDecider.initialState(), {
    type: 'AccountOpened',
    data: {
      ...opened.data,
      kind: 'EXTERNAL_BANK',
      type: 'EXTERNAL_BANK',
      holdsBalance: false,
      details: {
        kind: 'EXTERNAL_BANK',
        accountOwnerName: 'Ada',
        accountOwnerType: 'INDIVIDUAL',
        bankName: null,
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
  })
  t.equal(accountSnapshot.encode(bank), undefined)
  t.equal(accountSnapshot.encode(accountDecider.initialState()), undefined)
  t.throws(() => accountSnapshot.decode({ status: 'ACTIVE' }))
  t.throws(() => accountSnapshot.decode('nope'))
})
