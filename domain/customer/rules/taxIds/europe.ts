// Tax id formats of Europe.

import { ean13Valid, isValidDayMonth, isValidYymmdd, iso7064Mod11_10Valid, luhnValid, weightedSum } from './checksums.js'
import { compactFormat, type TaxIdFormat } from './format.js'

// GB National Insurance number: HMRC's prefix rules (first letter not D,F,I,Q,U,V;
// second not D,F,I,O,Q,U,V; some pairs never issued), six digits, suffix A-D.
const NINO = /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/
const NINO_NEVER_ISSUED = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'])

export function isGbNino(v: string): boolean {
  return NINO.test(v) && !NINO_NEVER_ISSUED.has(v.slice(0, 2))
}

/** GB: NINO, or a 10-digit Unique Taxpayer Reference (no public check-digit rule applied). */
export function isGbTaxId(v: string): boolean {
  return isGbNino(v) || /^\d{10}$/.test(v)
}

/**
 * DE Steuer-ID: 11 digits, no leading 0; in the first ten exactly one digit occurs
 * two or three times and the rest once; ISO 7064 MOD 11,10 check digit.
 */
export function isDeSteuerId(v: string): boolean {
  if (!/^[1-9]\d{10}$/.test(v)) return false
  const counts = new Map<string, number>()
  for (const c of v.slice(0, 10)) counts.set(c, (counts.get(c) ?? 0) + 1)
  const repeated = [...counts.values()].filter((n) => n > 1)
  if (repeated.length !== 1 || (repeated[0] !== 2 && repeated[0] !== 3)) return false
  return iso7064Mod11_10Valid(v)
}

/** FR numéro fiscal (SPI): 13 digits starting 0-3. */
export function isFrNumeroFiscal(v: string): boolean {
  return /^[0-3]\d{12}$/.test(v)
}

const ES_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'

/** ES DNI (8 digits + letter) or NIE (X/Y/Z = 0/1/2, 7 digits, letter); letter = number mod 23. */
export function isEsDniOrNie(v: string): boolean {
  const m = /^([XYZ]\d{7}|\d{8})([A-Z])$/.exec(v)
  if (!m) return false
  const digits = (m[1] ?? '').replace('X', '0').replace('Y', '1').replace('Z', '2')
  return ES_LETTERS[Number(digits) % 23] === m[2]
}

// IT codice fiscale. Digits may be replaced by letters (omocodia) when codes collide.
const CF = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/
const OMOCODIA = 'LMNPQRSTUV'
const CF_MONTHS = 'ABCDEHLMPRST'
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]

function cfDigit(c: string): number {
  const i = OMOCODIA.indexOf(c)
  return i >= 0 ? i : Number(c)
}

export function isItCodiceFiscale(v: string): boolean {
  if (!CF.test(v)) return false
  const month = CF_MONTHS.indexOf(v[8] ?? '') + 1
  const rawDay = cfDigit(v[9] ?? '') * 10 + cfDigit(v[10] ?? '')
  const day = rawDay > 40 ? rawDay - 40 : rawDay // women: day + 40
  if (!isValidDayMonth(month, day)) return false
  let sum = 0
  for (let i = 0; i < 15; i++) {
    const c = v[i] ?? ''
    const value = /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65 // A=0 ... Z=25, digit d = d
    sum += i % 2 === 0 ? (CF_ODD[value] ?? 0) : value // 1st, 3rd, ... (1-based odd) use the odd table
  }
  return String.fromCharCode(65 + (sum % 26)) === v[15]
}

/** NL BSN: 9 digits (8 padded with 0), "elfproef" 9..2 minus last digit, not all zeros. */
export function isNlBsn(v: string): boolean {
  const n = v.length === 8 ? `0${v}` : v
  if (!/^\d{9}$/.test(n) || n === '000000000') return false
  return (weightedSum(n.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2]) - Number(n[8])) % 11 === 0
}

/** SE personnummer / samordningsnummer (day + 60): [CC]YYMMDD[-+]NNNC, Luhn over the 10 digits. */
const seFormat: TaxIdFormat = {
  expected: 'SE personnummer',
  check: (raw) => {
    const m = /^(\d{2})?(\d{2})(\d{2})(\d{2})([-+]?)(\d{4})$/.exec(raw.replace(/\s/g, ''))
    if (!m) return undefined
    const [, cc, yy = '', mm = '', dd = '', sep = '', tail = ''] = m
    const day = Number(dd) > 60 ? Number(dd) - 60 : Number(dd)
    const year = cc === undefined ? undefined : Number(cc + yy)
    if (!isValidDayMonth(Number(mm), day, year)) return undefined
    if (!luhnValid(yy + mm + dd + tail)) return undefined
    // "+" marks someone 100 or older in the 10-digit form; keep it.
    return cc === undefined ? `${yy}${mm}${dd}${sep === '+' ? '+' : ''}${tail}` : `${cc}${yy}${mm}${dd}${tail}`
  },
}

/** PL PESEL: birth date (century in the month: +80 1800s, +0, +20, +40, +60), weights 1,3,7,9. */
export function isPlPesel(v: string): boolean {
  if (!/^\d{11}$/.test(v)) return false
  const mmRaw = Number(v.slice(2, 4))
  const centuries: Record<number, number> = { 0: 1900, 1: 1900, 2: 2000, 3: 2000, 4: 2100, 5: 2100, 6: 2200, 7: 2200, 8: 1800, 9: 1800 }
  const century = centuries[Math.floor(mmRaw / 10)] ?? 1900
  const month = mmRaw % 20
  const year = century + Number(v.slice(0, 2))
  if (!isValidDayMonth(month, Number(v.slice(4, 6)), year)) return false
  const sum = weightedSum(v.slice(0, 10), [1, 3, 7, 9, 1, 3, 7, 9, 1, 3])
  return (10 - (sum % 10)) % 10 === Number(v[10])
}

/** PT NIF: 9 digits, mod-11 check with weights 9..2 (10 and 11 give 0). */
export function isPtNif(v: string): boolean {
  if (!/^[1-9]\d{8}$/.test(v)) return false
  const r = 11 - (weightedSum(v.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2]) % 11)
  return (r >= 10 ? 0 : r) === Number(v[8])
}

/** BE national number: 97 - (first 9 digits mod 97), with a "2" prefix for births from 2000. */
export function isBeNationalNumber(v: string): boolean {
  if (!/^\d{11}$/.test(v)) return false
  const check = Number(v.slice(9))
  return 97 - (Number(v.slice(0, 9)) % 97) === check || 97 - (Number(`2${v.slice(0, 9)}`) % 97) === check
}

/** NO fødselsnummer / D-number (day + 40): birth date then two mod-11 check digits. */
export function isNoFodselsnummer(v: string): boolean {
  if (!/^\d{11}$/.test(v)) return false
  const dd = Number(v.slice(0, 2))
  const mm = Number(v.slice(2, 4))
  if (!isValidDayMonth(mm, dd > 40 ? dd - 40 : dd)) return false
  const mod11 = (digits: string, weights: number[]): number | undefined => {
    const r = 11 - (weightedSum(digits, weights) % 11)
    return r === 11 ? 0 : r === 10 ? undefined : r
  }
  return (
    mod11(v.slice(0, 9), [3, 7, 6, 1, 8, 9, 4, 5, 2]) === Number(v[9]) &&
    mod11(v.slice(0, 10), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) === Number(v[10])
  )
}

/** DK CPR: DDMMYY + 4 digits; the mod-11 rule was dropped in 2007, so only the date is checked. */
export function isDkCpr(v: string): boolean {
  return /^\d{10}$/.test(v) && isValidYymmdd(v.slice(4, 6) + v.slice(2, 4) + v.slice(0, 2))
}

// FI henkilötunnus: DDMMYY, century sign (+ 1800s; - or U-Y 1900s; A-F 2000s),
// individual number 002-899, check character = DDMMYYNNN mod 31. The sign is a dash
// for most people, so dashes are not stripped.
const FI_CHECK = '0123456789ABCDEFHJKLMNPRSTUVWXY'
const FI_CENTURY: Record<string, number> = {
  '+': 1800,
  '-': 1900,
  U: 1900,
  V: 1900,
  W: 1900,
  X: 1900,
  Y: 1900,
  A: 2000,
  B: 2000,
  C: 2000,
  D: 2000,
  E: 2000,
  F: 2000,
}

export function isFiHetu(v: string): boolean {
  const m = /^(\d{2})(\d{2})(\d{2})([-+A-FU-Y])(\d{3})([0-9A-Y])$/.exec(v)
  if (!m) return false
  const [, dd = '', mm = '', yy = '', sign = '', nnn = '', check] = m
  const century = FI_CENTURY[sign] ?? 1900
  if (!isValidDayMonth(Number(mm), Number(dd), century + Number(yy))) return false
  if (Number(nnn) < 2 || Number(nnn) > 899) return false
  return FI_CHECK[Number(dd + mm + yy + nnn) % 31] === check
}

/** IE PPS number: 7 digits, check letter (mod 23), optional second letter (A-I, W). */
export function isIePps(v: string): boolean {
  const m = /^(\d{7})([A-W])([A-IW]?)$/.exec(v)
  if (!m) return false
  const second = m[3] ?? ''
  const secondValue = second === '' || second === 'W' ? 0 : second.charCodeAt(0) - 64
  const sum = weightedSum(m[1] ?? '', [8, 7, 6, 5, 4, 3, 2]) + secondValue * 9
  return 'WABCDEFGHIJKLMNOPQRSTUV'[sum % 23] === m[2]
}

/** CH AHV/AVS number: 756 + 10 digits, EAN-13 check digit. */
export function isChAhv(v: string): boolean {
  return /^756\d{10}$/.test(v) && ean13Valid(v)
}

export const EUROPE_TAX_IDS: Record<string, TaxIdFormat> = {
  GB: compactFormat('GB National Insurance number or UTR', isGbTaxId),
  DE: compactFormat('DE Steuer-ID', isDeSteuerId, /[\s.\-/]/g),
  FR: compactFormat('FR numéro fiscal', isFrNumeroFiscal),
  ES: compactFormat('ES DNI or NIE', isEsDniOrNie),
  IT: compactFormat('IT codice fiscale', isItCodiceFiscale),
  NL: compactFormat('NL BSN', isNlBsn),
  SE: seFormat,
  PL: compactFormat('PL PESEL', isPlPesel),
  PT: compactFormat('PT NIF', isPtNif),
  BE: compactFormat('BE national number', isBeNationalNumber),
  NO: compactFormat('NO fødselsnummer or D-number', isNoFodselsnummer),
  DK: compactFormat('DK CPR number', isDkCpr),
  FI: compactFormat('FI henkilötunnus', isFiHetu, /\s/g),
  IE: compactFormat('IE PPS number', isIePps),
  CH: compactFormat('CH AHV number', isChAhv),
}
