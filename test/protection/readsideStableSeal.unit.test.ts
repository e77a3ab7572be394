// Stable sealing (the read models'): the same text in the same record and field seals to the same
// text, so a rebuild writes identical rows; it opens like any sealed text; another text, record
// or field gives other bytes, and the associated data still binds it to its place.
import t from 'tap'
import { CiphertextError, isSealedText, newDataKey, openText, sealTextStable } from '../../events/protection/fieldCipher.js'

const key = newDataKey()

t.test('same input, same output; it opens with the key and associated data', async (t) => {
  const a = sealTextStable(key, '+14155550123', 'customer-cus_1|phone')
  t.equal(sealTextStable(key, '+14155550123', 'customer-cus_1|phone'), a)
  t.ok(isSealedText(a))
  t.notOk(a.includes('4155550123'))
  t.equal(openText(key, a, 'customer-cus_1|phone'), '+14155550123')
})

t.test('another text, record, field or key: other bytes (no IV is shared by two plaintexts)', async (t) => {
  const a = sealTextStable(key, '+14155550123', 'customer-cus_1|phone')
  t.not(sealTextStable(key, '+14155550124', 'customer-cus_1|phone'), a)
  t.not(sealTextStable(key, '+14155550123', 'customer-cus_2|phone'), a)
  t.not(sealTextStable(key, '+14155550123', 'customer-cus_1|other'), a)
  t.not(sealTextStable(newDataKey(), '+14155550123', 'customer-cus_1|phone'), a)
  const iv = (sealed: string) => Buffer.from(sealed.slice('enc1.'.length), 'base64url').subarray(0, 12).toString('hex')
  t.not(iv(sealTextStable(key, 'x', 'r|f')), iv(sealTextStable(key, 'y', 'r|f')), 'different texts, different IVs')
})

t.test('moved to another record, it does not open', async (t) => {
  const a = sealTextStable(key, '1990-12-10', 'customer-cus_1|dateOfBirth')
  t.throws(() => openText(key, a, 'customer-cus_2|dateOfBirth'), CiphertextError)
})
