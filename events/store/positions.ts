// Positions are two unsigned 64-bit numbers, zero-padded so that string order is commit order.
// Both adapters encode theirs this way (Postgres: transaction id / global position; EventStoreDB:
// commit / prepare), so checkpoints compare as plain strings in SQL and in code.
import type { Position } from './port.js'

const WIDTH = 20

export function encodePosition(major: bigint | string, minor: bigint | string): Position {
  return `${String(major).padStart(WIDTH, '0')}/${String(minor).padStart(WIDTH, '0')}` as Position
}

export function decodePosition(position: Position): { major: bigint; minor: bigint } {
  const match = /^(\d{20})\/(\d{20})$/.exec(position)
  if (!match) throw new RangeError(`Not a position: ${JSON.stringify(position)}`)
  return { major: BigInt(match[1]!), minor: BigInt(match[2]!) }
}

export function comparePositions(a: Position, b: Position): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * How far `at` is through the log from `from` to `head`, 0 to 1: an estimate for progress reports, from
 * the minor parts, which grow with the log in both adapters (Postgres: the global position, a sequence,
 * so nearly a count of events; EventStoreDB: the prepare position, a byte offset). Undefined when there is
 * nothing between `from` and `head`.
 */
export function logShare(from: Position, at: Position, head: Position): number | undefined {
  const minor = (p: Position) => (p === '' ? 0n : decodePosition(p).minor)
  const start = minor(from)
  const span = minor(head) - start
  if (span <= 0n) return undefined
  const share = Number(minor(at) - start) / Number(span)
  return Math.min(1, Math.max(0, share))
}
