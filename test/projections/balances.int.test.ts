// The balances projector, given events then rows: an opened balance account gets a zero balance per
// currency; each funds event an entry with its signed changes, the balance after it and its cause;
// holds are open rows until settled or released; accounts without a balance get no rows. The
// events are the account decider's own (credit, hold, settle, release, reverse, draw).
import t from 'tap'
import { type AccountCommand, type AccountState, accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { balancesProjector } from '../../projections/balances.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'

const balances = projectorSpec(await projectionDatabase(t), balancesProjector)

const ORG = 'org_01h00000000000000000000000'
const CUS = 'cus_01h00000000000000000000000'
const ACC = 'acc_01h00000000000000000000000'
const ACC2 = 'acc_01h00000000000000000000002'
const EBA = 'eba_01h00000000000000000000000'
const at = (minute: number) => `2026-11-24T08:${String(minute).padStart(2, '0')}:00.000Z`

const opened = (accountId: string, currencyCodes = ['USD']): AccountEvent => ({
  type: 'AccountOpened',
  data: {
    accountId,
    organizationId: ORG,
    customerId: CUS,
    kind: 'USD_BALANCE',
    type: 'INFINITE_BANK',
    status: 'ACTIVE',
    currencyCodes,
    paymentRails: ['ACH', 'BALANCE'],
    holdsBalance: true,
    balanceSourceEligible: true,
    provider: 'SANDBOX',
    counterpartyId: null,
    metadata: {},
    details: { kind: 'USD_BALANCE' },
    at: at(0),
  },
})

type Step = { accountId?: string; minute: number } & (
  | { type: 'CreditFunds'; cause: string; amountMinor: bigint; source?: 'world' | 'credit_line' }
  | { type: 'PlaceHold'; holdId: string; amountMinor: bigint }
  | { type: 'SettleHold' | 'ReleaseHold'; holdId: string }
  | { type: 'ReverseCredit'; cause: string; amountMinor: bigint }
)

/** The events the account decider appends for these steps, after the openings. */
function history(openings: AccountEvent[], steps: Step[]): AccountEvent[] {
  const states = new Map<string, AccountState>()
  for (const e of openings) states.set(e.data.accountId, accountDecider.evolve(accountDecider.initialState(), e))
  const out = [...openings]
  for (const { accountId = ACC, minute, ...step } of steps) {
    const command = { ...step, organizationId: ORG, accountId, now: at(minute), currency: 'USD' } as AccountCommand
    let state = states.get(accountId)!
    for (const e of accountDecider.decide(command, state)) {
      out.push(e)
      state = accountDecider.evolve(state, e)
    }
    states.set(accountId, state)
  }
  return out
}

t.test('opened: a zero balance per currency; an account without a balance gets no rows', async (t) => {
  const external: AccountEvent = {
    type: 'AccountOpened',
    data: { ...(opened(EBA).data as Extract<AccountEvent, { type: 'AccountOpened' }>['data']), accountId: EBA, holdsBalance: false },
  }
  await balances.given([opened(ACC, ['USD', 'USDC']), external]).thenRows(t, {
    balance_accounts: [
      {
        account_id: ACC,
        organization_id: ORG,
        customer_id: CUS,
        type: 'INFINITE_BANK',
        entry_count: '0',
        opened_at: at(0),
        closed_at: null,
      },
    ],
    balances: [
      { account_id: ACC, currency: 'USD', available: '0', committed: '0' },
      { account_id: ACC, currency: 'USDC', available: '0', committed: '0' },
    ],
    balance_entries: [],
    balance_holds: [],
  })
})

t.test('credit, hold, settle, release, reversal, draw: one entry each with the balance after it', async (t) => {
  const events = history(
    [opened(ACC)],
    [
      { type: 'CreditFunds', cause: 'dep_1', amountMinor: 10_000n, minute: 1 },
      { type: 'PlaceHold', holdId: 'hld_1', amountMinor: 3_000n, minute: 2 },
      { type: 'PlaceHold', holdId: 'hld_2', amountMinor: 2_000n, minute: 3 },
      { type: 'SettleHold', holdId: 'hld_1', minute: 4 },
      { type: 'ReleaseHold', holdId: 'hld_2', minute: 5 },
      { type: 'ReverseCredit', cause: 'dep_1', amountMinor: 500n, minute: 6 },
      { type: 'CreditFunds', cause: 'drw_1', amountMinor: 700n, source: 'credit_line', minute: 7 },
    ],
  )
  const entry = (seq: number, type: string, changes: [string, string], after: [string, string], cause: [string, string], tx: string) => ({
    account_id: ACC,
    seq: String(seq),
    id: /^btx_[0-9a-f]{32}$/,
    currency: 'USD',
    type,
    available_change: changes[0],
    committed_change: changes[1],
    available_after: after[0],
    committed_after: after[1],
    cause_type: cause[0],
    cause_id: cause[1],
    transaction_id: tx,
    created_at: at(seq),
  })
  await balances.given(events).thenRows(t, {
    balance_accounts: [{ account_id: ACC, entry_count: '7', updated_at: at(7) }],
    balances: [{ account_id: ACC, currency: 'USD', available: '7200', committed: '0' }],
    balance_entries: [
      { ...entry(1, 'DEPOSIT', ['10000', '0'], ['10000', '0'], ['DEPOSIT', 'dep_1'], 'credit:dep_1'), description: 'Deposit dep_1' },
      entry(2, 'HOLD', ['-3000', '3000'], ['7000', '3000'], ['HOLD', 'hld_1'], 'hold:hld_1'),
      entry(3, 'HOLD', ['-2000', '2000'], ['5000', '5000'], ['HOLD', 'hld_2'], 'hold:hld_2'),
      entry(4, 'PAYOUT', ['0', '-3000'], ['5000', '2000'], ['HOLD', 'hld_1'], 'settle:hld_1'),
      entry(5, 'RELEASE', ['2000', '-2000'], ['7000', '0'], ['HOLD', 'hld_2'], 'release:hld_2'),
      entry(6, 'REVERSAL', ['-500', '0'], ['6500', '0'], ['DEPOSIT', 'dep_1'], 'reversal:dep_1'),
      entry(7, 'DRAW', ['700', '0'], ['7200', '0'], ['DRAW', 'drw_1'], 'credit:drw_1'),
    ],
    balance_holds: [],
  })
})

t.test('open holds: a row per hold until it settles or is released, per account', async (t) => {
  const events = history(
    [opened(ACC), opened(ACC2)],
    [
      { type: 'CreditFunds', cause: 'dep_1', amountMinor: 1_000n, minute: 1 },
      { type: 'CreditFunds', accountId: ACC2, cause: 'dep_1', amountMinor: 1_000n, minute: 1 },
      { type: 'PlaceHold', holdId: 'hld_a', amountMinor: 100n, minute: 2 },
      { type: 'PlaceHold', holdId: 'hld_b', amountMinor: 200n, minute: 3 },
      { type: 'PlaceHold', accountId: ACC2, holdId: 'hld_a', amountMinor: 300n, minute: 4 },
      { type: 'SettleHold', holdId: 'hld_a', minute: 5 },
    ],
  )
  await balances.given(events).thenRows(t, {
    balances: [
      { account_id: ACC, available: '700', committed: '200' },
      { account_id: ACC2, available: '700', committed: '300' },
    ],
    balance_holds: [
      { account_id: ACC, hold_id: 'hld_b', seq: '3', currency: 'USD', amount: '200', created_at: at(3) },
      { account_id: ACC2, hold_id: 'hld_a', seq: '2', currency: 'USD', amount: '300', created_at: at(4) },
    ],
  })
})

t.test('closed: the account keeps its (zero) balances and records when it closed', async (t) => {
  const closed: AccountEvent = {
    type: 'AccountClosed',
    data: { accountId: ACC, organizationId: ORG, reason: 'CLOSED_BY_CALLER', at: at(9) },
  }
  await balances.given([opened(ACC), closed]).thenRows(t, {
    balance_accounts: [{ account_id: ACC, closed_at: at(9) }],
    balances: [{ account_id: ACC, available: '0', committed: '0' }],
  })
})

t.test('a funds event for an account with no balance row fails the batch (a projector bug, never a silent skip)', async (t) => {
  const events = history([opened(ACC)], [{ type: 'CreditFunds', cause: 'dep_1', amountMinor: 1n, minute: 1 }])
  await balances.given(events.slice(1)).thenThrows(t, /no balance row/)
})
