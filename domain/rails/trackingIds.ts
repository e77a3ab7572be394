// The tracking ids a sandbox leg carries, generated in their real formats, and the checks that a
// string has that format. Randomness comes from the secure pool; dates from the caller (a test
// clock). Fedwire dates a message by its cycle: the Fed business day whose 18:00 ET cut-off is the
// next one, so a wire sent Friday evening carries Monday's cycle date.
import bs58 from 'bs58'
import { DateTime } from 'luxon'
import { z } from 'zod'
import { secureRandomBytes } from '../secureRandom.js'
import type { Chain } from '../shared/chain/chains.js'
import { CHAIN_TX_HASHES, RAIL_CATALOG, type SandboxRail, type TrackingIdKind } from './railCatalog.js'
import { railSchedule } from './schedule.js'

export const TRACKING_ID_DEFAULTS = {
  /** The sandbox's Fedwire input source (IMAD): 4 letters and 4 letters or digits, as a Fedwire LTERM. */
  imadSource: 'SNDBXFT1',
  /** The sandbox's Fedwire output destination (OMAD). */
  omadDestination: 'SNDBXFR1',
  /** OMAD's Fedwire output FRB identifier. */
  omadFrbId: 'FT03',
  /** The sandbox ODFI's ABA routing number (valid check digit; 12 is the San Francisco district). */
  odfiRoutingNumber: '123456780',
  fedwireTimeZone: 'America/New_York',
} as const

const FEDWIRE_ID = /^[A-Z]{4}[A-Z0-9]{4}$/
const UETR = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const IMAD = /^(\d{8})[A-Z]{4}[A-Z0-9]{4}\d{6}$/
const OMAD = /^(\d{8})[A-Z]{4}[A-Z0-9]{4}\d{6}(\d{4})(\d{4})[A-Z0-9]{4}$/
const ACH_TRACE = /^\d{15}$/
const EVM_HASH = /^0x[0-9a-f]{64}$/
const HEX_HASH = /^[0-9a-f]{64}$/
const SOLANA_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/

const hex = (bytes: Buffer): string => bytes.toString('hex')

/** `count` uniformly random decimal digits: bytes of 250 and above are redrawn, so no digit is favoured. */
function randomDigits(count: number): string {
  let digits = ''
  while (digits.length < count) {
    for (const byte of secureRandomBytes(count)) if (byte < 250 && digits.length < count) digits += String(byte % 10)
  }
  return digits
}

function fedwireDate(date: Date): DateTime {
  const local = DateTime.fromJSDate(date, { zone: TRACKING_ID_DEFAULTS.fedwireTimeZone })
  if (!local.isValid) throw new RangeError('a Fedwire id needs a valid date')
  return local
}

/** The Fedwire cycle date (CCYYMMDD) of a message sent at `date`: the business day of the next cut-off. */
function fedwireCycleDate(date: Date): string {
  const { nextCutoffAt } = railSchedule('FEDWIRE', date)
  return DateTime.fromISO(nextCutoffAt ?? '', { zone: TRACKING_ID_DEFAULTS.fedwireTimeZone }).toFormat('yyyyLLdd')
}

function fedwireParty(id: string, role: string): string {
  if (!FEDWIRE_ID.test(id)) throw new RangeError(`a Fedwire ${role} is 4 letters then 4 letters or digits, not ${id}`)
  return id
}

/** A UETR (SWIFT gpi): a random UUID, RFC 4122 version 4 and variant 10, lowercase. */
export function uetr(): string {
  const bytes = secureRandomBytes(16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const h = hex(bytes)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** A Fedwire IMAD (22 characters): input cycle date CCYYMMDD, input source (8), input sequence (6 digits). */
export function imad(date: Date, source: string = TRACKING_ID_DEFAULTS.imadSource): string {
  return `${fedwireCycleDate(date)}${fedwireParty(source, 'input source')}${randomDigits(6)}`
}

/**
 * A Fedwire OMAD (34 characters): output cycle date CCYYMMDD, output destination (8), output
 * sequence (6 digits), output date MMDD and time HHMM (New York, the instant `date` it was sent to
 * the receiver), output FRB id (4).
 */
export function omad(date: Date, destination: string = TRACKING_ID_DEFAULTS.omadDestination): string {
  const local = fedwireDate(date)
  const party = fedwireParty(destination, 'output destination')
  return `${fedwireCycleDate(date)}${party}${randomDigits(6)}${local.toFormat('LLddHHmm')}${TRACKING_ID_DEFAULTS.omadFrbId}`
}

/** A Nacha trace number (15 digits): the ODFI's routing number without its check digit (8), then a 7-digit sequence. */
export function achTraceNumber(routingNumber: string = TRACKING_ID_DEFAULTS.odfiRoutingNumber): string {
  if (!/^\d{9}$/.test(routingNumber)) throw new RangeError('an ACH trace number needs a 9-digit ABA routing number')
  return `${routingNumber.slice(0, 8)}${randomDigits(7)}`
}

/** A transaction id as `chain` writes it (see CHAIN_TX_HASHES). */
export function txHash(chain: Chain): string {
  switch (CHAIN_TX_HASHES[chain].format) {
    case 'EVM_HEX':
      return `0x${hex(secureRandomBytes(32))}`
    case 'HEX':
      return hex(secureRandomBytes(32))
    case 'BASE58_SIGNATURE':
      return bs58.encode(secureRandomBytes(64))
  }
}

export type RailTrackingIds = Partial<Record<Exclude<TrackingIdKind, 'txHash'>, string>>

/** Fresh ids of every kind `rail` carries (RAIL_CATALOG's trackingIds), dated `date`: what a leg on it is stamped with. */
export function railTrackingIds(rail: SandboxRail, date: Date, options: { achRoutingNumber?: string } = {}): RailTrackingIds {
  const ids: RailTrackingIds = {}
  for (const kind of RAIL_CATALOG[rail].trackingIds) {
    if (kind === 'uetr') ids.uetr = uetr()
    else if (kind === 'imad') ids.imad = imad(date)
    else if (kind === 'omad') ids.omad = omad(date)
    else if (kind === 'achTraceNumber') ids.achTraceNumber = achTraceNumber(options.achRoutingNumber)
  }
  return ids
}

const isCalendarDate = (yyyymmdd: string): boolean => DateTime.fromFormat(yyyymmdd, 'yyyyLLdd', { zone: 'UTC' }).isValid

export const isUetr = (value: string): boolean => UETR.test(value)

export const isImad = (value: string): boolean => {
  const match = IMAD.exec(value)
  return match !== null && isCalendarDate(match[1]!)
}

export const isOmad = (value: string): boolean => {
  const match = OMAD.exec(value)
  if (!match) return false
  const [, cycleDate = '', monthDay = '', time = ''] = match
  return isCalendarDate(cycleDate) && /^(0\d|1\d|2[0-3])[0-5]\d$/.test(time) && isCalendarDate(`${cycleDate.slice(0, 4)}${monthDay}`)
}

export const isAchTraceNumber = (value: string): boolean => ACH_TRACE.test(value)

export function isTxHash(chain: Chain, value: string): boolean {
  switch (CHAIN_TX_HASHES[chain].format) {
    case 'EVM_HEX':
      return EVM_HASH.test(value)
    case 'HEX':
      return HEX_HASH.test(value)
    case 'BASE58_SIGNATURE':
      return SOLANA_SIGNATURE.test(value) && bs58.decodeUnsafe(value)?.length === 64
  }
}

export const uetrSchema = z.string().refine(isUetr, 'must be a lowercase UUID v4 (UETR)').describe('UETR (SWIFT gpi), UUID v4')
export const imadSchema = z.string().refine(isImad, 'must be a Fedwire IMAD').describe('Fedwire IMAD: CCYYMMDD + source (8) + sequence (6)')
export const omadSchema = z.string().refine(isOmad, 'must be a Fedwire OMAD').describe('Fedwire OMAD (34 characters)')
export const achTraceNumberSchema = z.string().refine(isAchTraceNumber, 'must be 15 digits').describe('ACH trace number (15 digits)')
