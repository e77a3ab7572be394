// Tax id formats of Asia and the Pacific.

import { isValidDayMonth, isValidYymmdd, weightedSum } from './checksums.js'
import { compactFormat, type TaxIdFormat } from './format.js'

/** IN PAN: AAAAA9999A; 4th letter = holder type (P individual, C company, H HUF, F firm, ...); serial not 0000. */
export function isInPan(v: string): boolean {
  return /^[A-Z]{3}[ABCFGHJLPT][A-Z](?!0000)\d{4}[A-Z]$/.test(v)
}

// SG NRIC/FIN: weights 2,7,6,5,4,3,2; S/T (citizens, T from 2000) and F/G (foreigners,
// G from 2000) add 0/4 and index their own tables; M (FIN from 2022) adds 3 and
// reads its table backwards (ICA's published rule).
const SG_ST = 'JZIHGFEDCBA'
const SG_FG = 'XWUTRQPNMLK'
const SG_M = 'KLJNPQRTUWX'

export function isSgNricOrFin(v: string): boolean {
  const m = /^([STFGM])(\d{7})([A-Z])$/.exec(v)
  if (!m) return false
  const prefix = m[1] ?? ''
  const sum = weightedSum(m[2] ?? '', [2, 7, 6, 5, 4, 3, 2])
  let expected: string | undefined
  if (prefix === 'M') expected = SG_M[10 - ((sum + 3) % 11)]
  else {
    const offset = prefix === 'T' || prefix === 'G' ? 4 : 0
    expected = (prefix === 'S' || prefix === 'T' ? SG_ST : SG_FG)[(sum + offset) % 11]
  }
  return expected === m[3]
}

/** AU TFN (9-digit form): weighted sum with 1,4,3,7,5,8,6,9,10 divisible by 11. */
export function isAuTfn(v: string): boolean {
  return /^\d{9}$/.test(v) && weightedSum(v, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0
}

/** CN resident identity number: region, YYYYMMDD, sequence, ISO 7064 MOD 11-2 check (X = 10). */
export function isCnResidentId(v: string): boolean {
  if (!/^[1-9]\d{16}[\dX]$/.test(v)) return false
  if (!isValidDayMonth(Number(v.slice(10, 12)), Number(v.slice(12, 14)), Number(v.slice(6, 10)))) return false
  const sum = weightedSum(v.slice(0, 17), [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2])
  return '10X98765432'[sum % 11] === v[17]
}

/** HK HKID: 1-2 letters, 6 digits, check 0-9/A (mod 11; a one-letter id counts a leading space as 36). */
export function isHkHkid(v: string): boolean {
  const m = /^([A-Z]{1,2})(\d{6})([0-9A])$/.exec(v)
  if (!m) return false
  const letters = (m[1] ?? '').padStart(2, ' ')
  const value = (c: string): number => (c === ' ' ? 36 : c.charCodeAt(0) - 55) // A=10 ... Z=35
  const sum = value(letters[0] ?? ' ') * 9 + value(letters[1] ?? ' ') * 8 + weightedSum(m[2] ?? '', [7, 6, 5, 4, 3, 2])
  const r = (11 - (sum % 11)) % 11
  return (r === 10 ? 'A' : String(r)) === m[3]
}

// TW national id / resident certificate (new style): letter = area code 10-35 in this
// order, second digit 1/2 (citizens) or 8/9 (residents), weighted mod 10.
const TW_AREA = 'ABCDEFGHJKLMNPQRSTUVXYWZIO'

export function isTwNationalId(v: string): boolean {
  if (!/^[A-Z][1289]\d{8}$/.test(v)) return false
  const area = TW_AREA.indexOf(v[0] ?? '') + 10
  const sum = Math.floor(area / 10) + (area % 10) * 9 + weightedSum(v.slice(1), [8, 7, 6, 5, 4, 3, 2, 1, 1])
  return sum % 10 === 0
}

/** JP My Number: 12 digits, check = -(sum of weights 6,5,4,3,2,7,6,5,4,3,2) mod 11, 10 -> 0. */
export function isJpMyNumber(v: string): boolean {
  if (!/^\d{12}$/.test(v)) return false
  const r = (11 - (weightedSum(v.slice(0, 11), [6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11
  return r % 10 === Number(v[11])
}

/** TH personal id: 13 digits (not starting 0 or 9), weights 13..2, check = (11 - sum mod 11) mod 10. */
export function isThPersonalId(v: string): boolean {
  if (!/^[1-8]\d{12}$/.test(v)) return false
  const sum = weightedSum(v.slice(0, 12), [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
  return (11 - (sum % 11)) % 10 === Number(v[12])
}

/** KR resident registration number: YYMMDD + century/sex digit + 6. No check digit since 2020. */
export function isKrRrn(v: string): boolean {
  const m = /^(\d{6})([0-9])\d{6}$/.exec(v)
  if (!m) return false
  const centuries: Record<string, number> = {
    '9': 1800,
    '0': 1800,
    '1': 1900,
    '2': 1900,
    '5': 1900,
    '6': 1900,
    '3': 2000,
    '4': 2000,
    '7': 2000,
    '8': 2000,
  }
  return isValidYymmdd(m[1] ?? '', [centuries[m[2] ?? ''] ?? 1900])
}

/** MY MyKad number: YYMMDD, birthplace code, serial (12 digits). */
export function isMyMykad(v: string): boolean {
  return /^\d{12}$/.test(v) && isValidYymmdd(v.slice(0, 6))
}

export const ASIA_PACIFIC_TAX_IDS: Record<string, TaxIdFormat> = {
  IN: compactFormat('IN PAN', isInPan),
  SG: compactFormat('SG NRIC or FIN', isSgNricOrFin),
  AU: compactFormat('AU TFN', isAuTfn),
  CN: compactFormat('CN resident identity number', isCnResidentId),
  HK: compactFormat('HK HKID', isHkHkid, /[\s.\-()]/g),
  TW: compactFormat('TW national id', isTwNationalId),
  JP: compactFormat('JP My Number', isJpMyNumber),
  TH: compactFormat('TH personal id', isThPersonalId),
  KR: compactFormat('KR resident registration number', isKrRrn),
  MY: compactFormat('MY MyKad number', isMyMykad),
  // ID: NPWP (15 digits) or NIK (16 digits, used as NPWP since 2024).
  ID: compactFormat('ID NPWP or NIK', (v) => /^\d{15,16}$/.test(v)),
  // PH TIN: 9 digits, optionally a 3-5 digit branch code.
  PH: compactFormat('PH TIN', (v) => /^\d{9}(\d{3,5})?$/.test(v)),
  // VN: personal tax code (10 digits, 13 with a branch) or citizen id (12 digits).
  VN: compactFormat('VN tax code or citizen id', (v) => /^(\d{10}|\d{12}|\d{13})$/.test(v)),
}
