import t from 'tap'
import { mask, redactSecrets } from '../../events/protection/redaction.js'

t.test('secrets replaced, document numbers masked, at any depth', async (t) => {
  const out = redactSecrets({
    a: { secret: 'whsec_x', keyHash: 'f'.repeat(64) },
    list: [{ taxIdentificationNumber: '123456789' }],
    governmentId: { idNumber: 'X1234567' },
    keep: 'visible',
  })
  t.same(out, {
    a: { secret: '[redacted]', keyHash: '[redacted]' },
    list: [{ taxIdentificationNumber: '*****6789' }],
    governmentId: { idNumber: '****4567' },
    keep: 'visible',
  })
  t.equal(mask('123'), '****')
})
