// Tax id formats of the Middle East and Africa.

import { isValidYymmdd, luhnValid } from './checksums.js'
import { compactFormat, type TaxIdFormat } from './format.js'

/** TR T.C. Kimlik No: 11 digits, no leading 0, two check digits over odd/even positions. */
export function isTrKimlik(v: string): boolean {
  if (!/^[1-9]\d{10}$/.test(v)) return false
  const d = [...v].map(Number)
  const odd = (d[0] ?? 0) + (d[2] ?? 0) + (d[4] ?? 0) + (d[6] ?? 0) + (d[8] ?? 0)
  const even = (d[1] ?? 0) + (d[3] ?? 0) + (d[5] ?? 0) + (d[7] ?? 0)
  const d10 = (((odd * 7 - even) % 10) + 10) % 10
  const d11 = d.slice(0, 10).reduce((a, b) => a + b, 0) % 10
  return d10 === d[9] && d11 === d[10]
}

/** IL Teudat Zehut: up to 9 digits (leading zeros often dropped), Luhn over the 9-digit form. */
export function isIlTeudatZehut(v: string): boolean {
  return /^\d{5,9}$/.test(v) && !/^0+$/.test(v) && luhnValid(v.padStart(9, '0'))
}

/** ZA id number: YYMMDD, sequence, citizenship 0-2, a digit, Luhn check digit. */
export function isZaIdNumber(v: string): boolean {
  return /^\d{10}[012]\d{2}$/.test(v) && isValidYymmdd(v.slice(0, 6)) && luhnValid(v)
}

/** AE Emirates ID: 784, year, serial, Luhn check digit (15 digits). */
export function isAeEmiratesId(v: string): boolean {
  return /^784\d{12}$/.test(v) && luhnValid(v)
}

/** EG national id: century (2 = 1900s, 3 = 2000s), YYMMDD, governorate, serial, check (14 digits). */
export function isEgNationalId(v: string): boolean {
  const m = /^([23])(\d{6})\d{7}$/.exec(v)
  return m !== null && isValidYymmdd(m[2] ?? '', [m[1] === '2' ? 1900 : 2000])
}

export const MIDDLE_EAST_AFRICA_TAX_IDS: Record<string, TaxIdFormat> = {
  TR: compactFormat('TR T.C. Kimlik No', isTrKimlik),
  IL: compactFormat('IL Teudat Zehut', isIlTeudatZehut),
  ZA: compactFormat('ZA identity number', isZaIdNumber),
  AE: compactFormat('AE Emirates ID', isAeEmiratesId),
  EG: compactFormat('EG national id', isEgNationalId),
  // SA: national id (1...) or iqama (2...), 10 digits.
  SA: compactFormat('SA national id or iqama', (v) => /^[12]\d{9}$/.test(v)),
}
