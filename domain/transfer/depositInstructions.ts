// How the customer funds a transfer that is not paid from a balance (the spec's depositInstructions;
// their fiat fields are "not shown", so ours): a crypto deposit goes to a deposit address on the
// source chain; a fiat deposit to the sandbox's collection account for the rail's currency, with
// the transfer's reference in the payment message, which is how the deposit is matched to it.
import type { z } from 'zod'
import type { depositInstructionsSchema } from './events.js'
import type { RouteSide } from './route.js'

type Instructions = z.infer<typeof depositInstructionsSchema>

/** The sandbox's collection accounts by currency (test coordinates that pass their check digits). */
const COLLECTION_ACCOUNTS: Readonly<Record<string, Partial<Instructions>>> = {
  USD: { bankName: 'Sandbox Bank, N.A.', routingNumber: '110000000', accountNumber: '900000000001', swiftBic: 'CHASUS33XXX' },
  EUR: { bankName: 'Sandbox Bank Europe AG', iban: 'DE89370400440532013000', swiftBic: 'COBADEFFXXX' },
  GBP: {
    bankName: 'Sandbox Bank UK Ltd',
    routingNumber: '040004',
    accountNumber: '12345678',
    iban: 'GB33BUKB20201555555555',
    swiftBic: 'BUKBGB22XXX',
  },
}

/** The reference a deposit's message must carry: the transfer's, short enough for every rail's memo field. */
export const depositReferenceOf = (transferId: string): string => `TFR${transferId.slice(-12).toUpperCase()}`

export function depositInstructionsFor(
  source: RouteSide,
  transferId: string,
  amount: { currency: string; amountMinor: string },
  depositAddress: string | null,
): Instructions | null {
  const none = {
    toAddress: null,
    blockchainMemo: null,
    accountId: null,
    bankName: null,
    routingNumber: null,
    accountNumber: null,
    iban: null,
    swiftBic: null,
  }
  if (source.kind === 'BALANCE') return null
  if (source.kind === 'CHAIN')
    return { ...none, type: 'crypto', paymentRail: source.chain, toAddress: depositAddress, amount, reference: null }
  const collection = COLLECTION_ACCOUNTS[source.currency] ?? { bankName: 'Sandbox Correspondent Bank', swiftBic: 'CHASUS33XXX' }
  return { ...none, ...collection, type: 'bank', paymentRail: source.rail, amount, reference: depositReferenceOf(transferId) }
}
