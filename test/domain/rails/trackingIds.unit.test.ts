// Tracking ids (domain/rails/trackingIds.ts): each generator's output passes its validator and has
// its real format's fixed structure; the validators refuse near misses.
import bs58 from 'bs58'
import fc from 'fast-check'
import t from 'tap'
import {
  TRACKING_ID_DEFAULTS,
  achTraceNumber,
  achTraceNumberSchema,
  imad,
  imadSchema,
  isAchTraceNumber,
  isImad,
  isOmad,
  isTxHash,
  isUetr,
  omad,
  omadSchema,
  railTrackingIds,
  txHash,
  uetr,
  uetrSchema,
} from '../../../domain/rails/index.js'
import { CHAINS } from '../../../domain/shared/chain/index.js'

const SAMPLES = 200
const repeat = <T>(make: () => T): T[] => Array.from({ length: SAMPLES }, make)

t.test('UETR: a lowercase RFC 4122 version 4 UUID, random', async (t) => {
  const ids = repeat(uetr)
  for (const id of ids) {
    if (!isUetr(id) || id[14] !== '4' || !'89ab'.includes(id[19]!)) t.fail(`not a v4 UUID: ${id}`)
  }
  t.equal(new Set(ids).size, SAMPLES, 'no repeats')
  t.ok(uetrSchema.safeParse(ids[0]).success, 'the schema accepts it')
  t.notOk(isUetr('EB6305C9-1F7F-49DE-AED0-16487C27B42D'), 'upper case is refused')
  t.notOk(isUetr('eb6305c9-1f7f-19de-aed0-16487c27b42d'), 'version 1 is refused')
  t.notOk(isUetr('eb6305c9-1f7f-49de-7ed0-16487c27b42d'), 'the wrong variant is refused')
})

t.test('IMAD: Fedwire cycle date + input source + 6-digit sequence, 22 characters', async (t) => {
  // Tue 24 Nov 2026 10:00 EST: today's cycle.
  const id = imad(new Date('2026-11-24T15:00:00Z'))
  t.equal(id.length, 22)
  t.equal(id.slice(0, 8), '20261124', 'the cycle date')
  t.equal(imad(new Date('2026-11-24T03:00:00Z')).slice(0, 8), '20261124', 'Mon 23 Nov 22:00 EST is in Tuesday’s cycle')
  t.equal(imad(new Date('2026-11-25T23:30:00Z')).slice(0, 8), '20261127', 'Wed 25 Nov 18:30 EST: Thanksgiving, so Friday’s cycle')
  t.equal(imad(new Date('2026-11-21T15:00:00Z')).slice(0, 8), '20261123', 'a Saturday: Monday’s cycle')
  t.equal(id.slice(8, 16), TRACKING_ID_DEFAULTS.imadSource)
  t.match(id.slice(16), /^\d{6}$/)
  t.ok(isImad(id) && imadSchema.safeParse(id).success)
  t.equal(imad(new Date('2026-11-24T15:00:00Z'), 'QMGFT015').slice(0, 16), '20261124QMGFT015', 'a given source')
  t.throws(() => imad(new Date(), 'qmgft015'), RangeError, 'a source must be upper case')
  t.throws(() => imad(new Date('nope')), RangeError)
  t.notOk(isImad('20261332QMGFT015000001'), 'month 13 is refused')
  t.notOk(isImad('20261124QMGFT01500001'), 'a short sequence is refused')
  for (const id of repeat(() => imad(new Date()))) if (!isImad(id)) t.fail(id)
})

t.test('OMAD: cycle date + destination + sequence + MMDD + HHMM (New York) + FRB id, 34 characters', async (t) => {
  const id = omad(new Date('2026-07-01T13:05:00Z'))
  t.equal(id.length, 34)
  t.equal(id.slice(0, 16), `20260701${TRACKING_ID_DEFAULTS.omadDestination}`)
  t.match(id.slice(16, 22), /^\d{6}$/)
  t.equal(id.slice(22, 30), '07010905', 'output date and time in EDT')
  t.equal(omad(new Date('2026-07-03T13:05:00Z')).slice(0, 8), '20260703', 'Fri 3 Jul 2026 is open: Independence Day is a Saturday')
  t.equal(id.slice(30), TRACKING_ID_DEFAULTS.omadFrbId)
  t.ok(isOmad(id) && omadSchema.safeParse(id).success)
  t.notOk(isOmad(`${id.slice(0, 26)}2460${id.slice(30)}`), 'hour 24 is refused')
  t.notOk(isOmad(imad(new Date())), 'an IMAD is not an OMAD')
})

t.test('ACH trace number: the ODFI routing number without its check digit, then 7 digits', async (t) => {
  const id = achTraceNumber('021000021')
  t.equal(id.length, 15)
  t.equal(id.slice(0, 8), '02100002')
  t.ok(isAchTraceNumber(id) && achTraceNumberSchema.safeParse(id).success)
  t.equal(achTraceNumber().slice(0, 8), TRACKING_ID_DEFAULTS.odfiRoutingNumber.slice(0, 8), 'the sandbox ODFI by default')
  t.throws(() => achTraceNumber('12345'), RangeError)
  t.notOk(isAchTraceNumber('12345678901234'), '14 digits is refused')
  const digits = repeat(() => achTraceNumber()).map((id) => id.slice(8))
  t.ok(new Set(digits).size > SAMPLES * 0.95, 'the sequence is random')
})

t.test('a rail’s ids: each kind it carries, fresh and valid', async (t) => {
  const now = new Date('2026-11-24T15:00:00Z')
  const wire = railTrackingIds('WIRE', now)
  t.same(Object.keys(wire).sort(), ['imad', 'omad'])
  t.ok(isImad(wire.imad ?? '') && isOmad(wire.omad ?? ''))
  t.same(Object.keys(railTrackingIds('SWIFT', now)), ['uetr'])
  t.equal(railTrackingIds('ACH', now, { achRoutingNumber: '021000021' }).achTraceNumber?.slice(0, 8), '02100002')
  t.same(railTrackingIds('RTP', now), {}, 'RTP carries none of the spec’s ids')
  t.not(railTrackingIds('SEPA', now).uetr, railTrackingIds('SEPA', now).uetr, 'fresh each time')
})

t.test('tx hashes fit their chain', async (t) => {
  for (const chain of CHAINS) {
    for (const hash of repeat(() => txHash(chain))) if (!isTxHash(chain, hash)) t.fail(`${chain}: ${hash}`)
  }
  t.match(txHash('ETHEREUM'), /^0x[0-9a-f]{64}$/)
  t.match(txHash('BASE'), /^0x[0-9a-f]{64}$/)
  t.match(txHash('TRON'), /^[0-9a-f]{64}$/)
  t.match(txHash('BITCOIN'), /^[0-9a-f]{64}$/)
  t.equal(bs58.decode(txHash('SOLANA')).length, 64, 'a Solana signature is 64 bytes')
  t.notOk(isTxHash('TRON', txHash('ETHEREUM')), 'Tron has no 0x')
  t.notOk(isTxHash('ETHEREUM', txHash('BITCOIN')), 'EVM needs 0x')
  t.notOk(isTxHash('ETHEREUM', `0x${'A'.repeat(64)}`), 'EVM hashes are lowercase here')
  t.notOk(isTxHash('SOLANA', bs58.encode(Buffer.alloc(32, 7))), 'a 32-byte base58 string is an address, not a signature')
})

t.test('property: one non-hex character anywhere in a UETR or tx hash makes it invalid', async (t) => {
  const notHex = fc.constantFrom('g', 'z', 'G', 'F', ' ', '-', '_')
  fc.assert(
    fc.property(fc.nat(35), notHex, (at, c) => {
      const id = uetr()
      const mutated = `${id.slice(0, at)}${c}${id.slice(at + 1)}`
      return mutated === id || !isUetr(mutated)
    }),
    { seed: 20261124, numRuns: 300 },
  )
  fc.assert(
    fc.property(fc.nat(63), notHex, fc.constantFrom('ETHEREUM', 'TRON', 'BITCOIN'), (at, c, chain) => {
      const hash = txHash(chain)
      const offset = hash.startsWith('0x') ? 2 : 0
      return !isTxHash(chain, `${hash.slice(0, offset + at)}${c}${hash.slice(offset + at + 1)}`)
    }),
    { seed: 20261124, numRuns: 300 },
  )
  t.pass('held for 600 mutations')
})
