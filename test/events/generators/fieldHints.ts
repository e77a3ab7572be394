// Curated values for the event fields whose schema does not say what the domain writes in them, or
// says it in a way a generator cannot read (a refinement, an open regex). Each hint names why. The
// field-name rules (ids, timestamps, currencies) are what the domain puts there; every such field
// is reported by the unbounded-fields test as a gap of its schema, not hidden here.
import fc from 'fast-check'
import { LEDGER_TRANSACTION_LIMITS } from '../../../domain/ledger/index.js'
import { LIQUIDITY_LIMITS } from '../../../domain/liquidity-facility/limits.js'
import { METADATA_LIMITS, metadataSchema } from '../../../domain/shared/metadata.js'
import type { Hint, HintSource, Leaf } from './schemaValues.js'

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz'
/** The random part of a real id: 10 characters of time and 16 random ones. */
const ID_RANDOM_LENGTH = 26

/** The id prefix the domain gives a field, by its name (the rest are `x_`). */
const ID_PREFIX_BY_KEY: Readonly<Record<string, string>> = {
  organizationId: 'org',
  keyId: 'key',
  endpointId: 'ep',
  customerId: 'cus',
  fundingCustomerId: 'cus',
  transferId: 'tfr',
  refundTransferId: 'tfr',
  parentTransferId: 'tfr',
  documentId: 'doc',
  sessionId: 'vsess',
  entityId: 'asp',
  associatedEntityId: 'asp',
  agreementId: 'tos',
  acceptanceId: 'tosa',
  counterpartyId: 'cp',
  accountId: 'acc',
  sweepTargetAccountId: 'acc',
  returnedToAccountId: 'acc',
  refundAccountId: 'acc',
  payoutTreasuryId: 'inw',
  externalAccountId: 'eba',
  holdId: 'hld',
  facilityId: 'lqf',
  drawId: 'drw',
  repaymentId: 'rpy',
}

const isIdKey = (key: string) => key === 'id' || key.endsWith('Id') || key.endsWith('Ids') || key === 'claimedId'
const isTimeKey = (key: string) => key === 'at' || key.endsWith('At') || key.endsWith('AsOf')
const CURRENCY_KEYS = new Set([
  'currency',
  'currencyCodes',
  'currencies',
  'inputCurrency',
  'outputCurrency',
  'fundingCurrency',
  'sourceCurrency',
  'destinationCurrency',
])

/** An id of `prefix` whose random part fills `length` characters (a real id's 26 when unbounded), distinct per seed. */
export function idOf(prefix: string, seed: number, length = prefix.length + 1 + ID_RANDOM_LENGTH): string {
  const size = Math.max(1, length - prefix.length - 1)
  let digits = ''
  for (let rest = Math.abs(Math.trunc(seed)); digits === '' || rest > 0; rest = Math.floor(rest / BASE32.length))
    digits = BASE32[rest % BASE32.length] + digits
  return `${prefix}_${digits.padStart(size, 'z').slice(-size)}`
}

const idArbitrary = (prefix: string, maxLength: number | undefined) =>
  fc
    .string({
      unit: fc.constantFrom(...BASE32),
      minLength: ID_RANDOM_LENGTH,
      maxLength: Math.max(ID_RANDOM_LENGTH, (maxLength ?? 0) - prefix.length - 1),
    })
    .map((random) => `${prefix}_${random}`)

const idHint = (leaf: Leaf): Hint => {
  const prefix = ID_PREFIX_BY_KEY[leaf.key.replace(/Ids$/, 'Id')] ?? 'x'
  return {
    why: `an id (${prefix}_...): the domain writes newId's ids`,
    largest: (l, variant) => idOf(prefix, variant, l.maxLength ?? undefined),
    arbitrary: (l) => idArbitrary(prefix, l.maxLength),
  }
}

const TIMESTAMPS = ['9999-12-31T23:59:59.999Z', '2026-11-24T08:00:00.000Z', '2000-02-29T00:00:00.000Z', '1970-01-01T00:00:00.000Z']
const timeHint: Hint = {
  why: 'a timestamp: the domain writes Date.toISOString()',
  largest: (_leaf, variant) => TIMESTAMPS[variant % TIMESTAMPS.length],
  arbitrary: () =>
    fc
      .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => d.toISOString()),
}

/** Known currencies: the longest codes, the largest exponent (ETH, 18) and none (JPY). */
const CURRENCIES = ['USDC', 'ETH', 'JPY', 'USD', 'EUR', 'BTC', 'USDT', 'GBP']
const currencyHint: Hint = {
  why: 'a currency: the domain writes codes its money table knows (domain/shared/money)',
  largest: (_leaf, variant) => CURRENCIES[variant % CURRENCIES.length],
  arbitrary: () => fc.constantFrom(...CURRENCIES),
}

/** The largest metadata the request boundary takes (domain/shared/metadata.ts): 50 keys of 40 characters, 8 KB as JSON. */
function largestMetadata(): Record<string, string> {
  const keys = Array.from({ length: METADATA_LIMITS.maxKeys }, (_, i) =>
    `k${String(i).padStart(2, '0')}`.padEnd(METADATA_LIMITS.keyMaxLength, 'x'),
  )
  const empty = Buffer.byteLength(JSON.stringify(Object.fromEntries(keys.map((k) => [k, '']))))
  const each = Math.floor((METADATA_LIMITS.maxBytes - empty) / keys.length)
  const metadata = Object.fromEntries(keys.map((k) => [k, '漢'.repeat(Math.floor(each / 3))]))
  if (!metadataSchema.safeParse(metadata).success) throw new Error('the largest metadata must pass the request schema')
  return metadata
}
const LARGEST_METADATA = largestMetadata()
const metadataHint: Hint = {
  why: 'metadata: the event stores it as any object; the request boundary bounds it (50 keys, 8 KB)',
  largest: () => LARGEST_METADATA,
  arbitrary: () =>
    fc
      .dictionary(
        fc.string({ minLength: 1, maxLength: METADATA_LIMITS.keyMaxLength }),
        fc.oneof(fc.string({ maxLength: 50 }), fc.integer(), fc.boolean()),
        {
          maxKeys: 10,
        },
      )
      .filter((m) => metadataSchema.safeParse(m).success),
}

/** Fee rates as the domain takes them: at most 10 000 bps an hour, 4 decimals (liquidity-facility/fee.ts). */
const FEE_RATES = ['9999.9999', String(LIQUIDITY_LIMITS.maxFeeBpsPerHour), '0', '1.5']
const feeRateHint: Hint = {
  why: 'a fee rate: the schema takes any decimal, the domain at most 10 000 bps with 4 decimals',
  largest: (_leaf, variant) => FEE_RATES[variant % FEE_RATES.length],
  arbitrary: () => fc.integer({ min: 0, max: 100_000_000 }).map((n) => (n % 10_000 === 0 ? String(n / 10_000) : (n / 10_000).toFixed(4))),
}

const MAX_ABS = LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor
const signedAmountHint: Hint = {
  why: 'a signed posting amount: the schema refines it to |amount| <= 10^30',
  largest: (_leaf, variant) => (variant % 2 === 0 ? `-${MAX_ABS}` : `${MAX_ABS}`),
  arbitrary: () =>
    fc
      .bigInt({ min: -MAX_ABS, max: MAX_ABS })
      .filter((v) => v !== 0n)
      .map(String),
}

const LEDGER_ACCOUNTS = [
  'committed:vba_zzzzzzzzzzzzzzzzzzzzzzzzzz',
  'available:acc_00000000000000000000000000',
  'world',
  'clearing',
  'credit_line',
]
const ledgerAccountHint: Hint = {
  why: 'a ledger account: the schema refines it to available:<id>, committed:<id> or a system account',
  largest: (_leaf, variant) => LEDGER_ACCOUNTS[variant % LEDGER_ACCOUNTS.length],
  arbitrary: () => fc.constantFrom(...LEDGER_ACCOUNTS),
}

const PHONES = ['+999999999999999', '+14155550123']
const phoneHint: Hint = {
  why: 'a phone number: the schema refines it to E.164 (at most 15 digits)',
  largest: (_leaf, variant) => PHONES[variant % PHONES.length],
  arbitrary: () => fc.stringMatching(/^\+[1-9][0-9]{7,14}$/),
}

const DATES = ['9999-12-31', '2024-02-29', '1900-01-01']
const DATE_KEYS = new Set(['dateOfBirth', 'expirationDate', 'documentDate', 'dateOfIncorporation', 'relationshipDate'])
const dateHint: Hint = {
  why: 'a calendar date: the schema refines it to a real YYYY-MM-DD',
  largest: (_leaf, variant) => DATES[variant % DATES.length],
  arbitrary: () =>
    fc
      .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
}

const secretHint: Hint = {
  why: 'a signing secret: whsec_ and the base64 of 32 random bytes (domain/webhook-endpoint/signingSecret.ts)',
  largest: (_leaf, variant) => `whsec_${Buffer.alloc(32, variant + 250).toString('base64')}`,
  arbitrary: () => fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `whsec_${Buffer.from(b).toString('base64')}`),
}

/** A URL of exactly `length` characters. */
const urlOf = (length: number) => {
  const base = 'https://example.com/'
  return base + 'a'.repeat(Math.max(0, length - base.length))
}
const urlHint: Hint = {
  why: 'a URL (zod url format, which has no regex to sample)',
  largest: (leaf) => urlOf(leaf.maxLength ?? 2_048),
  arbitrary: (leaf) => fc.webUrl().filter((u) => u.length <= (leaf.maxLength ?? 2_048)),
}

/** The longest email address RFC 5321 allows: a 64-character local part and 63-character labels, 254 in all. */
const LONGEST_EMAIL = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`
const emailHint: Hint = {
  why: 'an email address: the longest RFC 5321 allows',
  largest: (leaf) => (leaf.maxLength === undefined || leaf.maxLength >= LONGEST_EMAIL.length ? LONGEST_EMAIL : 'a@example.com'),
  arbitrary: () => fc.emailAddress().filter((e) => e.length <= 254),
}

/** Exact largest values of the regexes event schemas use (a sample of a regex rarely reaches its longest). */
const LARGEST_BY_PATTERN: Readonly<Record<string, string>> = {
  '^\\d{1,31}$': '9'.repeat(31),
  '^(0|[1-9]\\d{0,39})$': '9'.repeat(40),
  '^[0-9a-f]{64}$': 'f'.repeat(64),
  '^doc_[0-9a-z]{26}$': `doc_${'z'.repeat(26)}`,
  '^asp_[0-9a-z]{26}$': `asp_${'z'.repeat(26)}`,
}

function patternHint(pattern: RegExp): Hint | undefined {
  const largest = LARGEST_BY_PATTERN[pattern.source]
  if (largest === undefined) return undefined
  return { why: `the longest match of ${String(pattern)}`, largest: () => largest, arbitrary: () => fc.stringMatching(pattern) }
}

/** The hint for a leaf, if any: patterns first (exact), then refined fields, then names the domain fills in a known format. */
export const eventFieldHints: HintSource = (leaf) => {
  const type = leaf.schema._zod.def.type
  if (type === 'record') return leaf.key === 'metadata' ? metadataHint : undefined
  if (type !== 'string') return undefined
  const patterned = leaf.patterns.length > 0 || leaf.format !== undefined
  if (patterned) {
    const [pattern] = leaf.patterns
    if (leaf.key === 'fundingFeeBpsPerHour') return feeRateHint
    if (leaf.key === 'secret') return secretHint
    if (leaf.format === 'url') return urlHint
    if (leaf.format === 'email') return emailHint
    // A timestamp's pattern admits years Postgres cannot store (0000); the domain writes Date.toISOString().
    if (leaf.format === 'datetime' && isTimeKey(leaf.key)) return timeHint
    // A currency's pattern admits codes the money table does not know; the domain writes only known ones.
    if (CURRENCY_KEYS.has(leaf.key)) return currencyHint
    return pattern && patternHint(pattern)
  }
  if (leaf.key === 'ledgerAccount') return ledgerAccountHint
  if (leaf.key === 'amountMinor' && leaf.refined) return signedAmountHint
  if (leaf.key === 'phone') return phoneHint
  if (DATE_KEYS.has(leaf.key)) return dateHint
  if (CURRENCY_KEYS.has(leaf.key)) return currencyHint
  if (isTimeKey(leaf.key)) return timeHint
  if (isIdKey(leaf.key)) return idHint(leaf)
  return undefined
}
