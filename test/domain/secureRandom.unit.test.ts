// The pooled CSPRNG draw: right sizes, never the same bytes twice (across pool refills too), and
// out-of-range sizes refused.
import t from 'tap'
import { SECURE_RANDOM_LIMITS, secureRandomBytes } from '../../domain/secureRandom.js'

t.test('draws have the asked length and do not repeat, across refills of the pool', async (t) => {
  const seen = new Set<string>()
  const lengths = new Set<number>()
  let draws = 0
  // Three pools' worth, in a size that does not divide the pool, so draws straddle a refill.
  for (let total = 0; total < SECURE_RANDOM_LIMITS.poolBytes * 3; total += 24) {
    const bytes = secureRandomBytes(24)
    lengths.add(bytes.length)
    seen.add(bytes.toString('hex'))
    draws++
  }
  t.same([...lengths], [24], 'every draw 24 bytes')
  t.equal(seen.size, draws, 'every draw distinct')
})

t.test('a draw is a copy: changing it does not touch later draws', async (t) => {
  const a = secureRandomBytes(16)
  a.fill(0)
  const b = secureRandomBytes(16)
  t.not(b.toString('hex'), '0'.repeat(32))
})

t.test('bytes are spread over all values', async (t) => {
  const counts = new Array(256).fill(0)
  for (let i = 0; i < 400; i++) for (const byte of secureRandomBytes(256)) counts[byte]++
  // 102,400 bytes: each value expected 400 times; 250..550 is far outside chance.
  t.ok(
    counts.every((c) => c > 250 && c < 550),
    'each byte value near its expected count',
  )
})

t.test('sizes out of range are refused', async (t) => {
  for (const bad of [0, -1, 1.5, SECURE_RANDOM_LIMITS.maxBytes + 1, Number.NaN]) {
    t.throws(() => secureRandomBytes(bad), RangeError, String(bad))
  }
  t.equal(secureRandomBytes(SECURE_RANDOM_LIMITS.maxBytes).length, SECURE_RANDOM_LIMITS.maxBytes)
})
