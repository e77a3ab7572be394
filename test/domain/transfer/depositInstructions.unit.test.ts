// How a customer funds a transfer not paid from a balance (domain/transfer/depositInstructions.ts):
// a crypto deposit to an address on the source chain; a fiat deposit to the sandbox's collection
// account for the currency (coordinates that pass their check digits), with the transfer's
// reference that matches the deposit to it.
import t from 'tap'
import { depositInstructionsFor, depositReferenceOf } from '../../../domain/transfer/depositInstructions.js'
import { depositInstructionsSchema } from '../../../domain/transfer/events.js'
import { SIDES, TRANSFER } from './transferFixtures.js'

const usd = { currency: 'USD', amountMinor: '10000' }

/** ISO 13616: move the first four characters to the end, letters to numbers, mod 97 is 1. */
const ibanValid = (iban: string) =>
  BigInt(
    (iban.slice(4) + iban.slice(0, 4))
      .split('')
      .map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55)))
      .join(''),
  ) %
    97n ===
  1n
/** ABA routing number checksum: 3, 7, 1 weights, a multiple of 10. */
const abaValid = (aba: string) => [...aba].reduce((sum, d, i) => sum + Number(d) * [3, 7, 1][i % 3]!, 0) % 10 === 0

t.test('a balance source needs no instructions', async (t) => {
  t.equal(depositInstructionsFor(SIDES.usdBalance, TRANSFER, usd, null), null)
  t.equal(depositInstructionsFor(SIDES.usdcBalance, TRANSFER, { currency: 'USDC', amountMinor: '1' }, '0xabc'), null)
})

t.test('a chain source: a crypto deposit to the address on that chain', async (t) => {
  const amount = { currency: 'USDC', amountMinor: '25000000' }
  const i = depositInstructionsFor(SIDES.ethUsdc, TRANSFER, amount, '0x52908400098527886E0F7030069857D2E4169EE7')
  t.same(i, {
    type: 'crypto',
    paymentRail: 'ETHEREUM',
    toAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    amount,
    blockchainMemo: null,
    accountId: null,
    bankName: null,
    routingNumber: null,
    accountNumber: null,
    iban: null,
    swiftBic: null,
    reference: null,
  })
  t.ok(depositInstructionsSchema.safeParse(i).success)
})

t.test('a fiat source: the collection account for the currency and the transfer’s reference', async (t) => {
  const ach = depositInstructionsFor(SIDES.ach, TRANSFER, usd, null)
  t.match(ach, { type: 'bank', paymentRail: 'ACH', amount: usd, toAddress: null, iban: null, reference: depositReferenceOf(TRANSFER) })
  t.ok(ach?.routingNumber && abaValid(ach.routingNumber), 'a routing number that passes its checksum')
  t.ok(ach?.accountNumber && ach.bankName && ach.swiftBic)

  const sepa = depositInstructionsFor(SIDES.sepa, TRANSFER, { currency: 'EUR', amountMinor: '500' }, null)
  t.match(sepa, { type: 'bank', paymentRail: 'SEPA', routingNumber: null, accountNumber: null })
  t.ok(sepa?.iban && ibanValid(sepa.iban), 'an IBAN that passes its check digits')

  const gbp = depositInstructionsFor(
    { kind: 'FIAT_RAIL', rail: 'FASTER_PAYMENTS', currency: 'GBP' },
    TRANSFER,
    { currency: 'GBP', amountMinor: '1' },
    null,
  )
  t.ok(gbp?.iban && ibanValid(gbp.iban), 'GBP: an IBAN that passes its check digits')
  t.ok(gbp?.routingNumber && gbp.accountNumber, 'and a sort code with an account number')

  const spei = depositInstructionsFor(SIDES.spei, TRANSFER, { currency: 'MXN', amountMinor: '1000' }, null)
  t.match(spei, { type: 'bank', paymentRail: 'SPEI', bankName: 'Sandbox Correspondent Bank', swiftBic: 'CHASUS33XXX', iban: null })
  for (const i of [ach, sepa, gbp, spei]) t.ok(depositInstructionsSchema.safeParse(i).success, `${i?.paymentRail}: fits the event schema`)
})

t.test('the deposit reference: TFR and the transfer id’s last 12 characters, upper case, short enough for every memo', async (t) => {
  t.equal(depositReferenceOf('tfr_01jdtfr0000000000000abcdef'), 'TFR000000ABCDEF')
  t.equal(depositReferenceOf(TRANSFER).length, 15)
  t.match(depositReferenceOf(TRANSFER), /^TFR[0-9A-Z]{12}$/)
  t.not(
    depositReferenceOf('tfr_01jdtfr0000000000000000001'),
    depositReferenceOf('tfr_01jdtfr0000000000000000002'),
    'distinct ids, distinct references',
  )
})
