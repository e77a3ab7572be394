// Splits an amount by weights without creating or losing a minor unit: each share is the floor of
// its exact part, and the units left over go one each to the largest remainders (ties: earlier
// weights first), so the shares always sum to the amount.
import type { Money } from './money.js'

export const ALLOCATE_LIMITS = { maxParts: 1_000 } as const

export function allocate(amount: Money, weights: readonly bigint[]): Money[] {
  if (weights.length === 0 || weights.length > ALLOCATE_LIMITS.maxParts) throw new RangeError(`1 to ${ALLOCATE_LIMITS.maxParts} weights`)
  if (weights.some((w) => w < 0n)) throw new RangeError('weights must not be negative')
  const total = weights.reduce((a, b) => a + b, 0n)
  if (total === 0n) throw new RangeError('weights must not all be zero')
  if (amount.amountMinor < 0n)
    return allocate({ ...amount, amountMinor: -amount.amountMinor }, weights).map((m) => ({ ...m, amountMinor: -m.amountMinor }))
  const shares = weights.map((w) => (amount.amountMinor * w) / total)
  const remainders = weights.map((w, i) => ({ i, remainder: (amount.amountMinor * w) % total }))
  let left = amount.amountMinor - shares.reduce((a, b) => a + b, 0n)
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1))
  for (const { i } of remainders) {
    if (left === 0n) break
    shares[i]! += 1n
    left -= 1n
  }
  return shares.map((amountMinor) => ({ currency: amount.currency, amountMinor }))
}
