// Tax id formats of the Americas.

import { isValidYymmdd, luhnValid, weightedSum } from './checksums.js'
import { compact, compactFormat, type TaxIdFormat } from './format.js'

/** US SSN (area not 000/666/9xx, group not 00, serial not 0000) or ITIN (9xx with 4th-5th digits in IRS ranges). */
export function isUsSsnOrItin(v: string): boolean {
  if (!/^\d{9}$/.test(v)) return false
  const area = Number(v.slice(0, 3))
  const group = Number(v.slice(3, 5))
  const serial = Number(v.slice(5))
  if (v[0] === '9') {
    // ITIN: the group encodes the range the IRS issues from.
    return (group >= 50 && group <= 65) || (group >= 70 && group <= 88) || (group >= 90 && group <= 92) || (group >= 94 && group <= 99)
  }
  return area !== 0 && area !== 666 && group !== 0 && serial !== 0
}

/** BR CPF: 11 digits, two mod-11 check digits; repeated-digit numbers pass the sums but are not issued. */
export function isBrCpf(v: string): boolean {
  if (!/^\d{11}$/.test(v) || /^(\d)\1{10}$/.test(v)) return false
  const dv = (body: string): number => {
    const n = body.length + 1
    const sum = weightedSum(
      body,
      Array.from({ length: body.length }, (_, i) => n - i),
    )
    return ((sum * 10) % 11) % 10
  }
  return dv(v.slice(0, 9)) === Number(v[9]) && dv(v.slice(0, 10)) === Number(v[10])
}

// RFC letters may include Ñ and &; the date part is YYMMDD of birth or incorporation.
const RFC_PERSON = /^[A-ZÑ&]{4}(\d{6})[A-Z0-9]{3}$/
const RFC_COMPANY = /^[A-ZÑ&]{3}(\d{6})[A-Z0-9]{3}$/
// CURP: 4 letters, birth date, sex (H/M, X since 2023), state, 3 inner consonants,
// a differentiator (digit: born before 2000; letter: from 2000), check digit.
const CURP_STATES = 'AS|BC|BS|CC|CH|CL|CM|CS|DF|DG|GR|GT|HG|JC|MC|MN|MS|NE|NL|NT|OC|PL|QR|QT|SL|SP|SR|TC|TL|TS|VZ|YN|ZS'
const CURP = new RegExp(`^[A-Z]{4}(\\d{6})[HMX](${CURP_STATES})[A-Z]{3}([0-9A-Z])(\\d)$`)
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ'

export function isMxRfc(v: string): boolean {
  const m = RFC_PERSON.exec(v) ?? RFC_COMPANY.exec(v)
  return m !== null && isValidYymmdd(m[1] ?? '')
}

export function isMxCurp(v: string): boolean {
  const m = CURP.exec(v)
  if (!m) return false
  const century = /\d/.test(m[3] ?? '') ? 1900 : 2000
  if (!isValidYymmdd(m[1] ?? '', [century])) return false
  let sum = 0
  for (let i = 0; i < 17; i++) sum += CURP_ALPHABET.indexOf(v[i] ?? '') * (18 - i)
  return (10 - (sum % 10)) % 10 === Number(m[4])
}

/** CA SIN: 9 digits, Luhn; 0 is unassigned and 8 is for business numbers. */
export function isCaSin(v: string): boolean {
  return /^[1-79]\d{8}$/.test(v) && luhnValid(v)
}

/** AR CUIT/CUIL: type prefix, 8-digit DNI, mod-11 check (a computed 10 is issued as 9). */
export function isArCuit(v: string): boolean {
  if (!/^(20|23|24|27|30|33|34|50|51|55)\d{9}$/.test(v)) return false
  const r = weightedSum(v.slice(0, 10), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
  const check = r === 0 ? 0 : r === 1 ? 9 : 11 - r
  return check === Number(v[10])
}

/** CL RUT/RUN: body then check digit 0-9 or K, mod 11 with weights 2..7 from the right. */
export function isClRut(v: string): boolean {
  const m = /^(\d{6,8})([0-9K])$/.exec(v)
  if (!m) return false
  const body = m[1] ?? ''
  let sum = 0
  ;[...body].reverse().forEach((c, i) => {
    sum += Number(c) * (2 + (i % 6))
  })
  const r = 11 - (sum % 11)
  const check = r === 11 ? '0' : r === 10 ? 'K' : String(r)
  return check === m[2]
}

/** CO NIT check digit (DIAN): prime weights from the right, mod 11. */
export function coNitCheckDigit(body: string): number {
  const weights = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71]
  let sum = 0
  ;[...body].reverse().forEach((c, i) => {
    sum += Number(c) * (weights[i] ?? 0)
  })
  const r = sum % 11
  return r < 2 ? r : 11 - r
}

/** PE: DNI (8 digits) or RUC (11 digits, type prefix, mod-11 check). */
export function isPeDniOrRuc(v: string): boolean {
  if (/^\d{8}$/.test(v)) return true
  if (!/^(10|15|16|17|20)\d{9}$/.test(v)) return false
  const check = (11 - (weightedSum(v.slice(0, 10), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 10
  return check === Number(v[10])
}

// Colombia: a cédula has no check digit; a NIT written "body-d" carries one. The dash
// is meaningful there, so it is kept in what is stored.
const coFormat: TaxIdFormat = {
  expected: 'CO cédula or NIT',
  check: (raw) => {
    const nit = /^([\d.\s]{6,20})-\s*(\d)$/.exec(raw.trim())
    if (nit) {
      const body = compact(nit[1] ?? '')
      if (!/^\d{6,15}$/.test(body)) return undefined
      return coNitCheckDigit(body) === Number(nit[2]) ? `${body}-${nit[2]}` : undefined
    }
    const v = compact(raw)
    return /^\d{6,10}$/.test(v) ? v : undefined
  },
}

export const AMERICAS_TAX_IDS: Record<string, TaxIdFormat> = {
  US: compactFormat('US SSN or ITIN', isUsSsnOrItin),
  BR: compactFormat('BR CPF', isBrCpf),
  MX: compactFormat('MX RFC or CURP', (v) => isMxRfc(v) || isMxCurp(v)),
  CA: compactFormat('CA SIN', isCaSin),
  AR: compactFormat('AR CUIT or CUIL', isArCuit),
  CL: compactFormat('CL RUT', isClRut),
  CO: coFormat,
  PE: compactFormat('PE DNI or RUC', isPeDniOrRuc),
  // DO cédula: 11 digits. Some genuine old cédulas fail the Luhn check, so none is applied.
  DO: compactFormat('DO cédula', (v) => /^\d{11}$/.test(v)),
}
