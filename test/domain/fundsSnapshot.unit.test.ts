// The funds snapshot codec: any state a random history leaves round-trips through JSON text exactly
// (decode(encode(s)) deep-equals s), and decode refuses what it does not recognise.
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import fc from 'fast-check'
import { type Funds, type FundsCommand, FUNDS_LIMITS, decideFunds, emptyFunds, evolveFunds } from '../../domain/balance-account/funds.js'
import { fundsSnapshot } from '../../domain/balance-account/fundsSnapshot.js'
import { DomainError } from '../../domain/errors.js'

const ACC = 'acc_01h00000000000000000000000'
const NOW = '2026-11-24T08:00:00.000Z'

/** Applies each command that the decider accepts; refusals are part of a random history too. */
function fold(commands: FundsCommand[], from: Funds = emptyFunds(ACC, ['USD', 'USDC'])): Funds {
  let state = from
  for (const command of commands) {
    try {
      for (const event of decideFunds(command, state)) state = evolveFunds(state, event)
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
    }
  }
  return state
}

const throughText = (f: Funds) => fundsSnapshot.decode(JSON.parse(JSON.stringify(fundsSnapshot.encode(f))))

const command = (holdIds: readonly string[]) =>
  fc.oneof(
    fc.record({
      type: fc.constant('CreditFunds' as const),
      cause: fc.string({ minLength: 1, maxLength: 20 }),
      currency: fc.constantFrom('USD', 'USDC'),
      amountMinor: fc.bigInt({ min: 1n, max: 10n ** 20n }),
      now: fc.constant(NOW),
    }),
    fc.record({
      type: fc.constant('PlaceHold' as const),
      holdId: fc.constantFrom(...holdIds),
      currency: fc.constantFrom('USD', 'USDC'),
      amountMinor: fc.bigInt({ min: 1n, max: 10n ** 18n }),
      now: fc.constant(NOW),
    }),
    fc.record({
      type: fc.constantFrom('SettleHold' as const, 'ReleaseHold' as const),
      holdId: fc.constantFrom(...holdIds),
      now: fc.constant(NOW),
    }),
    fc.record({
      type: fc.constant('ReverseCredit' as const),
      cause: fc.string({ minLength: 1, maxLength: 20 }),
      currency: fc.constantFrom('USD', 'USDC'),
      amountMinor: fc.bigInt({ min: 1n, max: 10n ** 18n }),
      now: fc.constant(NOW),
    }),
  )

t.test('property: a random history round-trips exactly', async (t) => {
  // Hold ids from a small pool, so holds are closed, reused (refused) and settled twice (refused).
  const ids = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 40 })
  fc.assert(
    fc.property(
      ids.chain((holdIds) => fc.array(command(holdIds), { maxLength: 200 })),
      (commands) => {
        const state = fold(commands)
        return isDeepStrictEqual(throughText(state), state)
      },
    ),
    { seed: 20261124, numRuns: 200 },
  )
  t.pass('200 random histories round-tripped exactly')
})

t.test('a full window of closed holds round-trips, and decides the same afterwards', async (t) => {
  const commands: FundsCommand[] = [{ type: 'CreditFunds', cause: 'dep', currency: 'USD', amountMinor: 10n ** 9n, now: NOW }]
  for (let i = 0; i < FUNDS_LIMITS.maxClosedHolds + 300; i++) {
    commands.push({ type: 'PlaceHold', holdId: `tfr_${i}`, currency: 'USD', amountMinor: 1n, now: NOW })
    commands.push({ type: i % 3 ? 'SettleHold' : 'ReleaseHold', holdId: `tfr_${i}`, now: NOW })
  }
  commands.push({ type: 'PlaceHold', holdId: 'tfr_open', currency: 'USD', amountMinor: 5n, now: NOW })
  const state = fold(commands)
  const decoded = throughText(state)
  t.same(decoded, state)
  t.ok(JSON.stringify(fundsSnapshot.encode(state)).length < 400_000, 'a bounded snapshot')
  const next: FundsCommand = { type: 'SettleHold', holdId: 'tfr_open', now: NOW }
  t.same(decideFunds(next, decoded), decideFunds(next, state))
})

t.test('decode refuses what it does not recognise', async (t) => {
  const good = fundsSnapshot.encode(fold([{ type: 'CreditFunds', cause: 'd', currency: 'USD', amountMinor: 5n, now: NOW }]))
  const bad: unknown[] = [
    null,
    'text',
    { ...(good as object), balances: [['available:x|USD', '1.5']] },
    { ...(good as object), openHolds: [['h', 'USD']] },
    { ...(good as object), closedHolds: ['a', 'a'] },
    { ...(good as object), closedHolds: Array.from({ length: FUNDS_LIMITS.maxClosedHolds + 1 }, (_, i) => `h${i}`) },
    { ...(good as object), extra: true },
  ]
  for (const json of bad) t.throws(() => fundsSnapshot.decode(json), JSON.stringify(json)?.slice(0, 60))
  t.ok(fundsSnapshot.decode(good))
})
