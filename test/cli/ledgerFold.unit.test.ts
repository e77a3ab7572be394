// The ledger fold of `ledger verify`: sums per ledger account and currency from any event carrying
// a ledger transaction; the first unbalanced one (or one with a zero posting) named; a `transaction`
// field with another meaning ignored, one with postings that do not parse reported as malformed.
import t from 'tap'
import { LedgerFold, transactionOf } from '../../cli/ledger/ledgerFold.js'

const ACC = 'acc_01h00000000000000000000000'
const tx = (id: string, postings: [string, string][], currency = 'USD') => ({
  id,
  kind: 'CREDIT',
  postings: postings.map(([ledgerAccount, amountMinor]) => ({ ledgerAccount, currency, amountMinor })),
  description: '',
})
const event = (n: number, data: Record<string, unknown>) => ({ id: `e${n}`, stream: `s-${n}`, type: 'Anything', data })

t.test('balanced transactions fold into sums per ledger account and currency, whatever the event type', async (t) => {
  const fold = new LedgerFold()
  fold.add(
    event(1, {
      transaction: tx('t1', [
        ['world', '-500'],
        [`available:${ACC}`, '500'],
      ]),
    }),
  )
  fold.add(
    event(2, {
      transaction: tx('t2', [
        [`available:${ACC}`, '-200'],
        [`committed:${ACC}`, '200'],
      ]),
    }),
  )
  fold.add(
    event(3, {
      transaction: tx(
        't3',
        [
          ['world', '-7'],
          ['fees', '7'],
        ],
        'USDC',
      ),
    }),
  )
  fold.add(event(4, { other: true }))
  t.equal(fold.events, 4)
  t.equal(fold.transactions, 3)
  t.equal(fold.balance(`available:${ACC}`, 'USD'), 300n)
  t.equal(fold.balance(`committed:${ACC}`, 'USD'), 200n)
  t.equal(fold.balance('fees', 'USDC'), 7n)
  t.equal(fold.balance('fees', 'USD'), 0n)
  t.equal(fold.firstUnbalanced, undefined)
})

t.test('the first unbalanced transaction is kept (and still folded); a zero posting is unbalanced too', async (t) => {
  const fold = new LedgerFold()
  fold.add(
    event(1, {
      transaction: tx('bad1', [
        ['world', '-5'],
        ['fees', '4'],
      ]),
    }),
  )
  fold.add(
    event(2, {
      transaction: tx('bad2', [
        ['world', '-5'],
        ['fees', '6'],
      ]),
    }),
  )
  t.same(fold.firstUnbalanced, {
    kind: 'unbalanced_transaction',
    eventId: 'e1',
    stream: 's-1',
    eventType: 'Anything',
    transactionId: 'bad1',
    sums: { USD: '-1' },
    zeroPosting: false,
  })
  t.equal(fold.balance('fees', 'USD'), 10n)
  const zero = new LedgerFold()
  zero.add(
    event(1, {
      transaction: tx('z', [
        ['world', '0'],
        ['fees', '0'],
      ]),
    }),
  )
  t.match(zero.firstUnbalanced, { transactionId: 'z', zeroPosting: true, sums: { USD: '0' } })
})

t.test('a transaction field of another meaning is no movement; postings that do not parse are malformed', async (t) => {
  t.same(transactionOf({ transaction: 'tx_123' }), {})
  t.same(transactionOf({ transaction: { hash: '0xabc' } }), {})
  t.match(transactionOf({ transaction: { id: 'x', kind: 'CREDIT', postings: [{ ledgerAccount: 'mars' }], description: '' } }), {
    problem: /postings/,
  })
  const fold = new LedgerFold()
  fold.add(event(1, { transaction: { postings: 'lots' } }))
  t.match(fold.firstMalformed, { kind: 'malformed_transaction', eventId: 'e1', problem: /postings/ })
  t.equal(fold.transactions, 0)
})
