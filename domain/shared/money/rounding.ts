// Named rounding of an exact quotient: every division of money goes through here, so each place
// that rounds says how. BigInt only: no float ever touches an amount.

export const ROUNDING_MODES = ['HALF_EVEN', 'HALF_UP', 'DOWN', 'UP', 'FLOOR', 'CEILING'] as const

/**
 * HALF_EVEN: to nearest, ties to even (banker's rounding, no bias over many roundings);
 * HALF_UP: to nearest, ties away from zero; DOWN: toward zero; UP: away from zero;
 * FLOOR: toward minus infinity; CEILING: toward plus infinity.
 */
export type RoundingMode = (typeof ROUNDING_MODES)[number]

const abs = (n: bigint) => (n < 0n ? -n : n)

/** numerator / denominator rounded by `mode`; the denominator must not be zero. */
export function divideRounded(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero')
  // Normalise to a positive denominator, so the sign lives in the numerator alone.
  if (denominator < 0n) return divideRounded(-numerator, -denominator, mode)
  const truncated = numerator / denominator // BigInt division truncates toward zero
  const remainder = numerator - truncated * denominator
  if (remainder === 0n) return truncated
  const negative = numerator < 0n
  const away = negative ? truncated - 1n : truncated + 1n
  switch (mode) {
    case 'DOWN':
      return truncated
    case 'UP':
      return away
    case 'FLOOR':
      return negative ? away : truncated
    case 'CEILING':
      return negative ? truncated : away
    case 'HALF_UP':
    case 'HALF_EVEN': {
      const twice = abs(remainder) * 2n
      if (twice < denominator) return truncated
      if (twice > denominator) return away
      if (mode === 'HALF_UP') return away
      return truncated % 2n === 0n ? truncated : away
    }
  }
}
