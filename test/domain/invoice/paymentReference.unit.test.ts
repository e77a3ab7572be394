// The payment reference: deterministic from the id, unique per id, read back to the id, and every
// single mistyped character or swap of neighbours refused rather than matched to another invoice.
import t from 'tap'
import { newId } from '../../../domain/shared/ids.js'
import { parsePaymentReference, paymentReferenceOf } from '../../../domain/invoice/paymentReference.js'
import { invoiceId } from '../invoiceFixtures.js'

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

t.test('INV-, the id upper case, two check digits: 33 characters, the same every time', async (t) => {
  const reference = paymentReferenceOf(invoiceId)
  t.match(reference, /^INV-01JDZ8K3M0ABCDEFGHJKMNPQRS-\d{2}$/)
  t.equal(reference.length, 33)
  t.equal(paymentReferenceOf(invoiceId), reference, 'deterministic')
  t.throws(() => paymentReferenceOf('cus_01jdz8k3m0abcdefghjkmnpqrs'), RangeError, 'only an invoice id')
})

t.test('round trip: the reference reads back to its invoice, however a bank or a person writes it', async (t) => {
  for (let i = 0; i < 200; i++) {
    const id = newId('inv')
    const reference = paymentReferenceOf(id)
    t.same(parsePaymentReference(reference), { ok: true, invoiceId: id, reference }, `round trip ${i}`)
    if (i === 0) {
      t.match(parsePaymentReference(reference.toLowerCase()), { ok: true, invoiceId: id }, 'lower case')
      t.match(parsePaymentReference(` ${reference.replace(/-/g, ' ')} `), { ok: true, invoiceId: id }, 'spaces for dashes')
      t.match(parsePaymentReference(reference.replace(/-/g, '')), { ok: true, invoiceId: id }, 'no dashes')
    }
  }
  const ids = Array.from({ length: 500 }, () => newId('inv'))
  t.equal(new Set(ids.map(paymentReferenceOf)).size, 500, 'unique: distinct ids, distinct references')
})

t.test("Crockford's look-alikes read as the digits they resemble", async (t) => {
  const reference = paymentReferenceOf('inv_01jdz8k3m0abcdefghjkmnpqrs')
  const typed = reference.replace('INV-01', 'INV-OI')
  t.match(parsePaymentReference(typed), { ok: true, invoiceId: 'inv_01jdz8k3m0abcdefghjkmnpqrs' })
})

t.test('every single substitution and every swap of neighbours is refused', async (t) => {
  const reference = paymentReferenceOf(invoiceId)
  const body = reference.slice(4, 30)
  const check = reference.slice(31)
  let substitutions = 0
  let accepted = 0
  for (let i = 0; i < body.length; i++)
    for (const c of ALPHABET) {
      if (c === body[i]) continue
      substitutions++
      if (parsePaymentReference(`INV-${body.slice(0, i)}${c}${body.slice(i + 1)}-${check}`).ok) accepted++
    }
  t.equal(substitutions, 26 * 31)
  t.equal(accepted, 0, 'no substitution in the id passes')
  let swaps = 0
  for (let i = 0; i + 1 < body.length; i++) {
    if (body[i] === body[i + 1]) continue
    swaps++
    const swapped = `${body.slice(0, i)}${body[i + 1]}${body[i]}${body.slice(i + 2)}`
    t.notOk(parsePaymentReference(`INV-${swapped}-${check}`).ok, `swap at ${i}`)
  }
  t.ok(swaps > 20)
  for (let d = 0; d < 10; d++) {
    const other = `${d}${check[1]}`
    if (other !== check) t.notOk(parsePaymentReference(`INV-${body}-${other}`).ok, `check digits ${other}`)
  }
})

t.test('what is not a reference says why', async (t) => {
  const reference = paymentReferenceOf(invoiceId)
  t.match(parsePaymentReference('TFR-01JDZ8K3M0ABCDEFGHJKMNPQRS-12'), { ok: false, reason: /start with INV/ })
  t.match(parsePaymentReference(reference.slice(0, -1)), { ok: false, reason: /26 characters/ }, 'a digit dropped')
  t.match(parsePaymentReference(`${reference}7`), { ok: false, reason: /26 characters/ }, 'a digit added')
  t.match(parsePaymentReference(reference.replace('INV-0', 'INV-U')), { ok: false, reason: /character/ }, 'U is no digit')
  t.match(parsePaymentReference(`INV-${'0'.repeat(100)}`), { ok: false, reason: /longer than 64/ })
  t.match(parsePaymentReference(''), { ok: false })
})
