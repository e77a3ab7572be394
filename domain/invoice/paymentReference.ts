// An invoice's payment reference: what a payer types into the bank's or the wallet's reference field,
// and what matching reads back off a deposit. `INV-` + the invoice id's 26 characters, upper case,
// + `-` + two check digits, 33 characters: within the 35 of a SWIFT reference line.
// - Deterministic (Request Network's lesson): the reference is a function of the id alone, so it needs
//   no table, no second write and no lookup; it is unique because ids are, and a deposit's reference
//   parses straight back to the invoice's id.
// - Check digits (ISO 7064 MOD 97-10, as IBANs and RF creditor references carry): the 26 characters
//   are read as one base-32 number n, and the check is 98 - (n x 100 mod 97). 97 is a prime that
//   divides no power of 32 and no difference of two digits, so every single mistyped character and
//   every swap of two neighbours changes n mod 97: such a typo is refused, never matched to another
//   invoice. Any other error slips through about once in 97 times, and then still needs a real id.
// - Read leniently where it is harmless: case, spaces and dashes (banks and people add them) are
//   ignored, and Crockford's look-alikes read as the digits they resemble (O as 0, I and L as 1).
import type { InvoiceId } from '../shared/ids.js'

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const LOOK_ALIKES: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1' }

export const PAYMENT_REFERENCE_LIMITS = {
  prefix: 'INV',
  /** Characters of an invoice id after `inv_` (domain/shared/ids.ts: 10 of time, 16 random). */
  idBodyLength: 26,
  checkDigits: 2,
  /** The longest text `parsePaymentReference` reads: the reference with room for spaces a bank adds. */
  maxInputLength: 64,
} as const
const L = PAYMENT_REFERENCE_LIMITS

const ID_BODY = new RegExp(`^inv_[${ALPHABET.toLowerCase()}]{${L.idBodyLength}}$`)

function checkOf(body: string): string {
  let n = 0n
  for (const c of body) n = n * 32n + BigInt(ALPHABET.indexOf(c))
  return (98n - ((n * 100n) % 97n)).toString().padStart(L.checkDigits, '0')
}

/** The reference of an invoice id; throws for a string that is not one (a caller bug, not a request). */
export function paymentReferenceOf(invoiceId: InvoiceId | string): string {
  if (!ID_BODY.test(invoiceId)) throw new RangeError(`Not an invoice id: ${JSON.stringify(invoiceId)}`)
  const body = invoiceId.slice('inv_'.length).toUpperCase()
  return `${L.prefix}-${body}-${checkOf(body)}`
}

export type ParsedPaymentReference = { ok: true; invoiceId: InvoiceId; reference: string } | { ok: false; reason: string }

/** The invoice a reference names, or why it names none (a typo, another kind of reference). */
export function parsePaymentReference(text: string): ParsedPaymentReference {
  if (text.length > L.maxInputLength) return { ok: false, reason: `longer than ${L.maxInputLength} characters` }
  const compact = text.toUpperCase().replace(/[\s-]/g, '')
  if (!compact.startsWith(L.prefix)) return { ok: false, reason: `does not start with ${L.prefix}-` }
  const rest = [...compact.slice(L.prefix.length)].map((c) => LOOK_ALIKES[c] ?? c).join('')
  if (rest.length !== L.idBodyLength + L.checkDigits)
    return { ok: false, reason: `must have ${L.idBodyLength} characters and ${L.checkDigits} check digits after ${L.prefix}-` }
  const body = rest.slice(0, L.idBodyLength)
  const check = rest.slice(L.idBodyLength)
  if ([...body].some((c) => !ALPHABET.includes(c))) return { ok: false, reason: 'holds a character no reference uses' }
  if (checkOf(body) !== check) return { ok: false, reason: 'the check digits do not match: a character is mistyped' }
  const invoiceId: InvoiceId = `inv_${body.toLowerCase()}`
  return { ok: true, invoiceId, reference: paymentReferenceOf(invoiceId) }
}
