// Cryptographically secure random bytes, drawn from a pool that the CSPRNG refills 4 KiB at a
// time. Each synchronous call into Node's CSPRNG costs several microseconds whatever its size,
// and a request asks for a few bytes several times (its request id, resource ids, a signing
// secret). Node's randomUUID pools the same way. Each byte is handed out once, then wiped.
import { randomFillSync } from 'node:crypto'

export const SECURE_RANDOM_LIMITS = {
  poolBytes: 4096,
  /** Largest single draw; bigger needs belong to randomBytes itself. */
  maxBytes: 256,
} as const

const pool = Buffer.alloc(SECURE_RANDOM_LIMITS.poolBytes)
let next: number = SECURE_RANDOM_LIMITS.poolBytes

export function secureRandomBytes(length: number): Buffer {
  if (!Number.isInteger(length) || length < 1 || length > SECURE_RANDOM_LIMITS.maxBytes) {
    throw new RangeError(`secureRandomBytes draws 1..${SECURE_RANDOM_LIMITS.maxBytes} bytes, not ${length}`)
  }
  if (next + length > pool.length) {
    randomFillSync(pool)
    next = 0
  }
  const bytes = Buffer.from(pool.subarray(next, next + length))
  pool.fill(0, next, next + length)
  next += length
  return bytes
}
