// The ledger's invariants: every movement balances per currency, unbalanced or zero postings are
// refused, and any sequence of movements leaves the balances summing to zero per currency (a
// property over random sequences), each ledger account's balance equal to its postings' sum.
import t from 'tap'
import fc from 'fast-check'
import {
  UnbalancedTransactionError,
  applyTransaction,
  assertBalanced,
  availableOf,
  balanceOf,
  committedOf,
  isLedgerAccount,
  ledgerTransactionSchema,
  movement,
  sumsByCurrency,
  system,
  totalsByCurrency,
  type LedgerBalances,
  type LedgerTransaction,
} from '../../domain/ledger/index.js'

const ACC = 'acc_01h00000000000000000000000'
const ACC2 = 'vba_01h00000000000000000000001'

t.test('ledger account names', async (t) => {
  t.equal(availableOf(ACC), `available:${ACC}`)
  t.equal(committedOf(ACC2), `committed:${ACC2}`)
  for (const good of ['world', 'clearing', 'fees', 'credit_line', `available:${ACC}`]) t.ok(isLedgerAccount(good), good)
  for (const bad of ['', 'bank', `held:${ACC}`, 'available:acc_short', `available:${ACC}:x`, `available:${ACC.toUpperCase()}`])
    t.notOk(isLedgerAccount(bad), bad)
  t.throws(() => availableOf('nope'), RangeError)
})

t.test('a movement is two postings that sum to zero', async (t) => {
  const tx = movement({
    id: 'dep_1',
    kind: 'CREDIT',
    currency: 'USD',
    amountMinor: 1234n,
    from: system('world'),
    to: availableOf(ACC),
    description: 'deposit',
  })
  t.same(tx.postings, [
    { ledgerAccount: 'world', currency: 'USD', amountMinor: '-1234' },
    { ledgerAccount: `available:${ACC}`, currency: 'USD', amountMinor: '1234' },
  ])
  t.same(sumsByCurrency(tx.postings), new Map([['USD', 0n]]))
  t.ok(ledgerTransactionSchema.safeParse(tx).success, 'and is what the event schema stores')
  const base = { id: 'x', kind: 'HOLD' as const, currency: 'USD', from: availableOf(ACC), to: committedOf(ACC), description: '' }
  t.throws(() => movement({ ...base, amountMinor: 0n }), RangeError, 'no zero movement')
  t.throws(() => movement({ ...base, amountMinor: -5n }), RangeError, 'no negative movement')
  t.throws(() => movement({ ...base, amountMinor: 5n, to: availableOf(ACC) }), RangeError, 'no movement to itself')
})

t.test('unbalanced transactions are refused, per currency', async (t) => {
  const p = (ledgerAccount: string, currency: string, amountMinor: string) =>
    ({ ledgerAccount, currency, amountMinor }) as LedgerTransaction['postings'][number]
  t.throws(
    () => assertBalanced({ id: 'a', postings: [p('world', 'USD', '-5'), p(`available:${ACC}`, 'USD', '4')] }),
    UnbalancedTransactionError,
  )
  t.throws(
    () => assertBalanced({ id: 'b', postings: [p('world', 'USD', '-5'), p(`available:${ACC}`, 'EUR', '5')] }),
    UnbalancedTransactionError,
    'sums are per currency: 5 USD out and 5 EUR in do not balance',
  )
  t.throws(
    () => assertBalanced({ id: 'c', postings: [p('world', 'USD', '0'), p(`available:${ACC}`, 'USD', '0')] }),
    UnbalancedTransactionError,
  )
  t.doesNotThrow(() =>
    assertBalanced({
      id: 'd',
      postings: [p('world', 'USD', '-5'), p(`available:${ACC}`, 'USD', '5'), p('world', 'EUR', '-7'), p('fees', 'EUR', '7')],
    }),
  )
  t.notOk(ledgerTransactionSchema.safeParse({ id: 'e', kind: 'CREDIT', postings: [p('world', 'USD', '1.5')], description: '' }).success)
})

t.test('property: any sequence of movements conserves money and each balance is its postings sum', async (t) => {
  const accounts = [system('world'), system('clearing'), system('fees'), availableOf(ACC), committedOf(ACC), availableOf(ACC2)]
  const step = fc.record({
    from: fc.constantFrom(...accounts),
    to: fc.constantFrom(...accounts),
    currency: fc.constantFrom('USD', 'EUR', 'USDC'),
    amountMinor: fc.bigInt({ min: 1n, max: 10n ** 24n }),
  })
  fc.assert(
    fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
      let balances: LedgerBalances = new Map()
      const postingSums = new Map<string, bigint>()
      steps.forEach((s, i) => {
        if (s.from === s.to) return
        const tx = movement({ id: `m${i}`, kind: 'CREDIT', description: '', ...s })
        balances = applyTransaction(balances, tx)
        for (const p of tx.postings)
          postingSums.set(
            `${p.ledgerAccount}|${p.currency}`,
            (postingSums.get(`${p.ledgerAccount}|${p.currency}`) ?? 0n) + BigInt(p.amountMinor),
          )
      })
      for (const total of totalsByCurrency(balances).values()) if (total !== 0n) return false
      for (const [key, sum] of postingSums) {
        const [account, currency] = key.split('|') as [string, string]
        if (balanceOf(balances, account, currency) !== sum) return false
      }
      return true
    }),
    { seed: 20261124, numRuns: 300 },
  )
  t.pass('300 random sequences conserved every currency')
})
