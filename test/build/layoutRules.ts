// design.md's Layout table as data: which project folders each top-level folder may import, and
// which packages the domain may use (pure computation only: no file, network or database access).
import type { Import } from './importGraph.js'

/** Folder prefixes each top-level folder may import from (its own folder is always allowed). */
export const MAY_IMPORT: Record<string, readonly string[]> = {
  domain: [],
  events: ['domain/'],
  http: ['domain/'],
  commands: ['domain/', 'events/', 'http/'],
  projections: ['domain/', 'events/'],
  'read-api': ['domain/', 'http/', 'projections/'],
  webhooks: ['domain/', 'events/', 'http/', 'commands/runtime/', 'projections/'],
  server: ['domain/', 'events/', 'http/', 'commands/', 'projections/', 'read-api/', 'webhooks/'],
  cli: ['domain/', 'events/', 'http/', 'commands/', 'projections/', 'read-api/', 'webhooks/', 'server/'],
  // A client of the public API only (console/ imports it).
  sdk: [],
  // The browser console reaches the service through the SDK only: the public API, with its authorization and tenancy.
  console: ['sdk/'],
}

/** Packages the SDK's runtime code (sdk/src/) may import: it runs in browsers too, so no node: module. */
export const SDK_PACKAGES: readonly string[] = ['openapi-fetch']

/**
 * Packages domain code may import: validation, reference data, node:crypto (hashing and randomness,
 * no I/O), the pure encoders and checksums of bank and wallet details, and the time-zone and holiday
 * rules of the rails' calendars (luxon, date-holidays: computation over bundled data), and RFC 8785
 * canonical JSON (canonicalize: a string from a value) for transfer draft hashes.
 */
export const DOMAIN_PACKAGES: readonly string[] = [
  'zod',
  'canonicalize',
  'currency-codes',
  'node:crypto',
  'ibantools',
  'ox',
  'bs58',
  'bs58check',
  'bitcoinjs-lib',
  '@bitcoinerlab/secp256k1',
  'luxon',
  'date-holidays',
]

const topFolder = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '')

/** `domain/customer/x.ts` -> 'customer'; shared code (`domain/shared/`, `domain/x.ts`) -> undefined. */
function aggregateOf(file: string): string | undefined {
  const parts = file.split('/')
  if (parts[0] !== 'domain' || parts.length < 3 || parts[1] === 'shared') return undefined
  return parts[1]
}

/** Why the Layout table forbids this import, or undefined when it allows it. */
export function layoutViolation(i: Import): string | undefined {
  const from = topFolder(i.from)
  const allowed = MAY_IMPORT[from]
  if (!allowed) return `${i.from} is in no folder of the Layout table`
  if (i.external) {
    if (i.from.startsWith('sdk/src/')) return SDK_PACKAGES.includes(i.to) ? undefined : `the SDK imports ${i.to}, which browsers lack`
    if (from !== 'domain') return undefined
    const name = i.to.startsWith('@') ? i.to.split('/').slice(0, 2).join('/') : i.to.split('/')[0]!
    return DOMAIN_PACKAGES.includes(name) ? undefined : `domain imports ${i.to}, which is not a pure package`
  }
  if (topFolder(i.to) === from) {
    // Inside domain/: shared code never depends on an aggregate, so aggregates build on it, not around it.
    if (from === 'domain' && aggregateOf(i.from) === undefined && aggregateOf(i.to) !== undefined) {
      return 'shared domain code imports an aggregate'
    }
    return undefined
  }
  return allowed.some((prefix) => i.to.startsWith(prefix)) ? undefined : `${from}/ may not import ${i.to}`
}
