// Classifies an IP address: public, or one of the ranges a webhook must never reach from
// production (loopback, private, link-local incl. cloud metadata, shared, reserved, multicast).
// IPv4-mapped, NAT64 and 6to4 IPv6 addresses are judged by the IPv4 address they carry.
import { isIPv4, isIPv6 } from 'node:net'
import type { Environment } from '../../domain/shared/environment.js'

export type AddressClass =
  'public' | 'loopback' | 'private' | 'link_local' | 'shared' | 'unspecified' | 'multicast' | 'reserved' | 'invalid'

type Range = { prefix: number[]; bits: number; kind: Exclude<AddressClass, 'public' | 'invalid'> }

const v4 = (text: string, bits: number, kind: Range['kind']): Range => ({ prefix: text.split('.').map(Number), bits, kind })

const IPV4_RANGES: Range[] = [
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link_local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
]

const v6 = (prefix: number[], bits: number, kind: Range['kind']): Range => ({ prefix, bits, kind })

const IPV6_RANGES: Range[] = [
  v6([0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'reserved'), // 100::/64 discard
  v6([0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'), // 2001:db8::/32 documentation
  v6([0x20, 0x01, 0x00], 23, 'reserved'), // 2001::/23 protocol assignments (Teredo, ...)
  v6([0xfc], 7, 'private'), // fc00::/7 unique local (incl. fd00:ec2::254 metadata)
  v6([0xfe, 0x80], 10, 'link_local'),
  v6([0xfe, 0xc0], 10, 'private'), // deprecated site-local
  v6([0xff], 8, 'multicast'),
]

function matches(bytes: number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit++) {
    const byte = bit >> 3
    const mask = 0x80 >> (bit & 7)
    if (((bytes[byte] ?? 0) & mask) !== ((range.prefix[byte] ?? 0) & mask)) return false
  }
  return true
}

function classifyV4(bytes: number[]): AddressClass {
  if (bytes.every((b) => b === 255)) return 'reserved'
  return IPV4_RANGES.find((r) => matches(bytes, r))?.kind ?? 'public'
}

/** 16 bytes of an IPv6 address, or undefined when it is not one. */
export function parseIPv6(text: string): number[] | undefined {
  if (!isIPv6(text)) return undefined
  // Drop a zone id, and write a trailing dotted quad as two hex groups.
  const address = text
    .split('%')[0]!
    .replace(
      /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
      (_m, a: string, b: string, c: string, d: string) =>
        `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
    )
  const [head = '', rest] = address.split('::') as [string, string | undefined]
  const headGroups = head === '' ? [] : head.split(':')
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':')
  const fill = rest === undefined ? 0 : 8 - headGroups.length - restGroups.length
  const groups = [...headGroups, ...Array<string>(Math.max(0, fill)).fill('0'), ...restGroups]
  if (groups.length !== 8) return undefined
  return groups.flatMap((g) => {
    const n = Number.parseInt(g, 16)
    return [n >> 8, n & 0xff]
  })
}

function classifyV6(bytes: number[]): AddressClass {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0)
  if (zeros(0, 16)) return 'unspecified'
  if (zeros(0, 15) && bytes[15] === 1) return 'loopback'
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 address decides.
  if (zeros(0, 10) && ((bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0)))
    return classifyV4(bytes.slice(12))
  // 64:ff9b::/96 NAT64 reaches the embedded IPv4 address.
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return classifyV4(bytes.slice(12))
  // 2002::/16 6to4 tunnels to the IPv4 address in bytes 2-5.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyV4(bytes.slice(2, 6))
  return IPV6_RANGES.find((r) => matches(bytes, r))?.kind ?? 'public'
}

export function classifyAddress(address: string): AddressClass {
  if (isIPv4(address)) return classifyV4(address.split('.').map(Number))
  const bytes = parseIPv6(address)
  return bytes ? classifyV6(bytes) : 'invalid'
}

/** Production calls public addresses only; sandbox also allows loopback, for local receivers. */
export function isAllowedAddress(address: string, environment: Environment): { allowed: boolean; kind: AddressClass } {
  const kind = classifyAddress(address)
  return { allowed: kind === 'public' || (environment === 'sandbox' && kind === 'loopback'), kind }
}
