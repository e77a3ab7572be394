// The fiat rails the sandbox settles and the chains it moves crypto on: for each rail the currencies
// it carries, the IANA zone and business calendar of its settlement system, its submission cut-offs
// in local time, when a submission settles in the real world, and the tracking ids it carries.
// Times are the operators' published schedules (sources beside each rail); where a bank's own
// cut-off varies we take the scheme's.
import type { Chain } from '../shared/chain/chains.js'
import type { PaymentRail } from '../shared/paymentRails.js'
import type { BusinessCalendar } from './businessCalendars.js'

/** A wall-clock time in the rail's zone. */
export type LocalTime = { readonly hour: number; readonly minute: number }

/** When a submission made before a cut-off settles. */
export type Settlement =
  /** Real-time gross settlement: on submission while the system is open, else at its next opening. */
  | { readonly kind: 'ON_SUBMISSION' }
  /** Batch settlement: `businessDays` after the cut-off's business day (0 is the same day), at `at`. */
  | { readonly kind: 'BUSINESS_DAYS_AFTER'; readonly businessDays: number; readonly at: LocalTime }

export type CutoffWindow = { readonly name: string; readonly cutoff: LocalTime; readonly settlement: Settlement }

export const TRACKING_ID_KINDS = ['uetr', 'imad', 'omad', 'achTraceNumber', 'txHash'] as const
export type TrackingIdKind = (typeof TRACKING_ID_KINDS)[number]

export type RailFacts = {
  readonly currencies: readonly string[]
  readonly timeZone: string
  readonly calendar: BusinessCalendar
  /** Submission deadlines of a business day, in time order; empty for 24/7 instant rails. */
  readonly windows: readonly CutoffWindow[]
  /** Opening of an RTGS business day, `previousDay` when it opens the evening before (Fedwire). */
  readonly opens?: { readonly at: LocalTime; readonly previousDay: boolean }
  /** The real-world settlement delay, in words, for docs and remarks. */
  readonly settlementDelay: string
  readonly trackingIds: readonly TrackingIdKind[]
}

const at = (hour: number, minute = 0): LocalTime => ({ hour, minute })
const INSTANT = { calendar: 'ALWAYS_OPEN', windows: [], settlementDelay: 'seconds, 24/7/365' } as const

/** Fedwire Funds: opens 21:00 ET the calendar day before, customer transfers until 18:00 ET (closes 19:00). */
const FEDWIRE_FACTS: RailFacts = {
  currencies: ['USD'],
  timeZone: 'America/New_York',
  calendar: 'FEDERAL_RESERVE',
  windows: [{ name: 'customer transfer cut-off', cutoff: at(18), settlement: { kind: 'ON_SUBMISSION' } }],
  opens: { at: at(21), previousDay: true },
  settlementDelay: 'immediate (RTGS) while Fedwire is open; otherwise at its next opening',
  trackingIds: ['imad', 'omad'],
}

export const RAIL_CATALOG = {
  /**
   * Next-day ACH: we take the ODFI cut-off at 16:45 ET (the last FedACH window of the day) and
   * FedACH's next-day settlement at 08:30 ET on the following Fed business day.
   */
  ACH: {
    currencies: ['USD'],
    timeZone: 'America/New_York',
    calendar: 'FEDERAL_RESERVE',
    windows: [{ name: 'next-day', cutoff: at(16, 45), settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 1, at: at(8, 30) } }],
    settlementDelay: 'next business day (08:30 ET)',
    trackingIds: ['achTraceNumber'],
  },
  /** Nacha same-day ACH: FedACH submission deadlines 10:30, 14:45 and 16:45 ET, settling 13:00, 17:00 and 18:00 ET. */
  ACH_SAME_DAY: {
    currencies: ['USD'],
    timeZone: 'America/New_York',
    calendar: 'FEDERAL_RESERVE',
    windows: [
      { name: 'same-day window 1', cutoff: at(10, 30), settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 0, at: at(13) } },
      { name: 'same-day window 2', cutoff: at(14, 45), settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 0, at: at(17) } },
      { name: 'same-day window 3', cutoff: at(16, 45), settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 0, at: at(18) } },
    ],
    settlementDelay: 'same business day (13:00, 17:00 or 18:00 ET by window)',
    trackingIds: ['achTraceNumber'],
  },
  /** A domestic US wire is a Fedwire Funds transfer. */
  WIRE: FEDWIRE_FACTS,
  FEDWIRE: FEDWIRE_FACTS,
  FED_NOW: { ...INSTANT, currencies: ['USD'], timeZone: 'America/New_York', trackingIds: [] },
  RTP: { ...INSTANT, currencies: ['USD'], timeZone: 'America/New_York', trackingIds: [] },
  /**
   * SWIFT (MT103 / pacs.008 via correspondents): the zone, calendar and cut-off are those of the
   * currency's settlement system (SWIFT_SETTLEMENT_SYSTEMS); these are the USD ones.
   */
  SWIFT: {
    currencies: ['USD', 'EUR', 'GBP', 'MXN', 'BRL'],
    timeZone: 'America/New_York',
    calendar: 'FEDERAL_RESERVE',
    windows: [{ name: 'Fedwire cover cut-off', cutoff: at(18), settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 1, at: at(12) } }],
    settlementDelay: '1 business day of the currency’s settlement system (gpi often faster, some corridors 2)',
    trackingIds: ['uetr'],
  },
  /**
   * SEPA Credit Transfer: TARGET2's customer-payment cut-off is 17:00 CET (interbank 18:00) on
   * TARGET days; the SCT rulebook's maximum execution time is D+1, credited by 09:00 CET we assume.
   * pacs.008 carries a UETR, so we fill one.
   */
  SEPA: {
    currencies: ['EUR'],
    timeZone: 'Europe/Berlin',
    calendar: 'TARGET2',
    windows: [
      { name: 'TARGET2 customer payments', cutoff: at(17), settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 1, at: at(9) } },
    ],
    settlementDelay: 'next TARGET2 business day (SCT D+1)',
    trackingIds: ['uetr'],
  },
  SEPA_INSTANT: { ...INSTANT, currencies: ['EUR'], timeZone: 'Europe/Berlin', trackingIds: ['uetr'] },
  /** TARGET Instant Payment Settlement: the Eurosystem's 24/7 instant rail. */
  TIPS: { ...INSTANT, currencies: ['EUR'], timeZone: 'Europe/Berlin', trackingIds: ['uetr'] },
  FASTER_PAYMENTS: { ...INSTANT, currencies: ['GBP'], timeZone: 'Europe/London', trackingIds: [] },
  /** Bacs: submitted by 22:30 on input day 1, processed on day 2, in the beneficiary's account on day 3. */
  BACS: {
    currencies: ['GBP'],
    timeZone: 'Europe/London',
    calendar: 'UK_ENGLAND_WALES',
    windows: [{ name: 'Bacs input day', cutoff: at(22, 30), settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 2, at: at(6) } }],
    settlementDelay: 'third business day (Bacs three-day cycle)',
    trackingIds: [],
  },
  /** CHAPS (Bank of England RTGS): opens 06:00, customer-to-customer deadline 17:40 London (bank-to-bank 18:00). */
  CHAPS: {
    currencies: ['GBP'],
    timeZone: 'Europe/London',
    calendar: 'UK_ENGLAND_WALES',
    windows: [{ name: 'customer payment deadline', cutoff: at(17, 40), settlement: { kind: 'ON_SUBMISSION' } }],
    opens: { at: at(6), previousDay: false },
    settlementDelay: 'immediate (RTGS) while CHAPS is open; otherwise at its next opening',
    trackingIds: ['uetr'],
  },
  SPEI: { ...INSTANT, currencies: ['MXN'], timeZone: 'America/Mexico_City', trackingIds: [] },
  PIX: { ...INSTANT, currencies: ['BRL'], timeZone: 'America/Sao_Paulo', trackingIds: [] },
  /** A move between two balances on our own ledger: instant, any currency, no cut-off. */
  BALANCE: { ...INSTANT, currencies: ['USD', 'EUR', 'GBP', 'MXN', 'BRL'], timeZone: 'UTC', trackingIds: [] },
} as const satisfies Partial<Record<PaymentRail, RailFacts>>

export type SandboxRail = keyof typeof RAIL_CATALOG
/** The catalog's rails as a list, in its order (a unit test checks it names every key once). */
export const SANDBOX_RAILS = [
  'ACH',
  'ACH_SAME_DAY',
  'WIRE',
  'FEDWIRE',
  'FED_NOW',
  'RTP',
  'SWIFT',
  'SEPA',
  'SEPA_INSTANT',
  'TIPS',
  'FASTER_PAYMENTS',
  'BACS',
  'CHAPS',
  'SPEI',
  'PIX',
  'BALANCE',
] as const satisfies readonly SandboxRail[]

export const isSandboxRail = (rail: string): rail is SandboxRail => Object.hasOwn(RAIL_CATALOG, rail)

/**
 * SWIFT's settlement side per currency: the zone, calendar and customer cut-off of the system the
 * beneficiary bank settles in. USD: Fedwire 18:00 ET. EUR: TARGET2 17:00 CET. GBP: CHAPS 17:40
 * London. MXN: 17:30 Mexico City on Mexican banking days (SPEI itself is 24/7, correspondents
 * are not). BRL: 17:00 São Paulo, Brazil's STR/TED customer cut-off. Each settles the next business
 * day at 12:00 local. A currency not listed settles through a New York correspondent (the USD row).
 */
export const SWIFT_SETTLEMENT_SYSTEMS: Readonly<Record<string, RailFacts>> = {
  USD: RAIL_CATALOG.SWIFT,
  EUR: swiftIn('EUR', 'Europe/Berlin', 'TARGET2', at(17)),
  GBP: swiftIn('GBP', 'Europe/London', 'UK_ENGLAND_WALES', at(17, 40)),
  MXN: swiftIn('MXN', 'America/Mexico_City', 'MEXICO_BANKING', at(17, 30)),
  BRL: swiftIn('BRL', 'America/Sao_Paulo', 'BRAZIL_BANKING', at(17)),
}

function swiftIn(currency: string, timeZone: string, calendar: BusinessCalendar, cutoff: LocalTime): RailFacts {
  return {
    ...RAIL_CATALOG.SWIFT,
    currencies: [currency],
    timeZone,
    calendar,
    windows: [{ name: `${currency} settlement cut-off`, cutoff, settlement: { kind: 'BUSINESS_DAYS_AFTER', businessDays: 1, at: at(12) } }],
  }
}

/** The facts that schedule a rail; for SWIFT, those of the currency's settlement system. */
export function railFacts(rail: SandboxRail, currency?: string): RailFacts {
  if (rail === 'SWIFT') return (currency && SWIFT_SETTLEMENT_SYSTEMS[currency]) || RAIL_CATALOG.SWIFT
  return RAIL_CATALOG[rail]
}

export type TxHashFormat = 'EVM_HEX' | 'HEX' | 'BASE58_SIGNATURE'

/**
 * How each chain writes a transaction id: EVM chains 0x + 32 bytes lowercase hex; Tron's txID and
 * Bitcoin's txid 32 bytes hex without 0x; Solana's transaction signature 64 bytes in base58.
 */
export const CHAIN_TX_HASHES = {
  ETHEREUM: { format: 'EVM_HEX' },
  BASE: { format: 'EVM_HEX' },
  POLYGON: { format: 'EVM_HEX' },
  ARBITRUM: { format: 'EVM_HEX' },
  ROBINHOOD: { format: 'EVM_HEX' },
  TRON: { format: 'HEX' },
  BITCOIN: { format: 'HEX' },
  SOLANA: { format: 'BASE58_SIGNATURE' },
} as const satisfies Record<Chain, { format: TxHashFormat }>

/** True when the sandbox settles `currency` on `rail` (a rail it does not settle carries nothing). */
export const railCarries = (rail: string, currency: string): boolean =>
  isSandboxRail(rail) && (RAIL_CATALOG[rail].currencies as readonly string[]).includes(currency)
