// The draft hash: RFC 8785 canonical JSON (the RFC's own examples: key order by UTF-16 code units,
// ECMAScript numbers, minimal string escapes) hashed with SHA-256, the same whatever the key order;
// the payees a body binds; the sandbox's screening outcome by amount.
import t from 'tap'
import { createHash } from 'node:crypto'
import { draftTransferBody } from '../../../domain/transfer-draft/draftBody.js'
import { DRAFT_HASH_PATTERN, canonicalJson, draftHashOf, payeeAccountIdsOf } from '../../../domain/transfer-draft/draftHash.js'
import { sandboxScreeningOutcome } from '../../../domain/transfer-draft/screening.js'
import { DomainError } from '../../../domain/errors.js'

t.test('canonical JSON as RFC 8785 writes it', async (t) => {
  // RFC 8785 §3.2.2.3 numbers and §3.2.3 sorting, Appendix B samples.
  t.equal(
    canonicalJson({ numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001] }),
    '{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}',
  )
  t.equal(canonicalJson({ string: '€$\u000f\nA\'B"\\\\"/' }), '{"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}')
  t.equal(canonicalJson({ literals: [null, true, false] }), '{"literals":[null,true,false]}')
  t.equal(
    canonicalJson({
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    }),
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
      '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  )
  t.equal(canonicalJson({ b: { y: 1, x: [2, { d: 0, c: -0 }] }, a: '' }), '{"a":"","b":{"x":[2,{"c":0,"d":0}],"y":1}}', 'nested, -0 as 0')
})

const body = draftTransferBody.parse({
  sourceCustomerId: 'cus_01',
  source: { paymentRail: 'ACH', currency: 'USD' },
  destination: { externalAccountId: 'eba_01', paymentRail: 'ACH' },
  sourceAmount: '1000',
  developerFeePercent: 0.015,
  metadata: { note: 'rent' },
})

t.test('the hash: sha256 of the canonical JSON, the same whatever the key order', async (t) => {
  const hash = draftHashOf(body)
  t.match(hash, DRAFT_HASH_PATTERN)
  t.equal(hash, `sha256:${createHash('sha256').update(canonicalJson(body)).digest('hex')}`)
  const reordered = {
    metadata: { note: 'rent' },
    developerFeePercent: 0.015,
    sourceAmount: '1000',
    destination: { paymentRail: 'ACH' as const, externalAccountId: 'eba_01' },
    source: { currency: 'USD', paymentRail: 'ACH' as const },
    sourceCustomerId: 'cus_01',
  }
  t.equal(draftHashOf(reordered), hash, 'key order does not change it')
  t.equal(draftHashOf(draftTransferBody.parse(reordered)), hash, 'nor does parsing')
  t.not(draftHashOf({ ...body, sourceAmount: '1001' }), hash, 'any content does')
  t.not(draftHashOf({ ...body, developerFeePercent: 0.0150001 }), hash)
})

t.test('the payees: the destination account; none is 422', async (t) => {
  t.same(payeeAccountIdsOf(body), ['eba_01'])
  t.same(payeeAccountIdsOf({ ...body, destination: { accountId: 'acc_01' } }), ['acc_01'])
  try {
    payeeAccountIdsOf({ ...body, destination: { paymentRail: 'SOLANA', toAddress: 'So1ana' } })
    t.fail('a chain address is no payee account')
  } catch (error) {
    t.ok(error instanceof DomainError)
    t.match(error, { kind: 'validation', code: 'transfer_draft_payee_required', details: [{ field: 'transfer.destination.accountId' }] })
  }
})

t.test('the sandbox screening outcome: 44.44 of any currency rejects', async (t) => {
  t.equal(sandboxScreeningOutcome('4444', 'USD'), 'REJECTED')
  t.equal(sandboxScreeningOutcome('44440000', 'USDC'), 'REJECTED')
  t.equal(sandboxScreeningOutcome('4440', 'USD'), 'APPROVED', '44.40')
  t.equal(sandboxScreeningOutcome('4444', 'USDC'), 'APPROVED', '0.004444')
  t.equal(sandboxScreeningOutcome(undefined, 'USD'), 'APPROVED', 'no source amount')
  t.equal(sandboxScreeningOutcome('4444', undefined), 'APPROVED', 'a currency left to derive')
})
