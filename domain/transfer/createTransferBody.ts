// The body of POST /v1/transfers (the spec leaves it "not shown"; shaped like Bridge's transfers):
// where the money comes from (a balance account, a fiat rail, or a chain), where it goes (an
// account or a counterparty's account, or an address on a chain), the amount on exactly one side,
// the developer fee, references, and `confirm` (false keeps it a DRAFT to submit later).
import { z } from 'zod'
import { CHAINS } from '../shared/chain/index.js'
import { minorAmountOrZero, positiveMinorAmount, withAmountBound } from '../shared/money/index.js'
import { PAYMENT_RAILS } from '../shared/paymentRails.js'
import { accountMetadataSchema } from '../account/accountMetadata.js'

export const CREATE_TRANSFER_LIMITS = {
  idMaxLength: 64,
  referenceMaxLength: 256,
  remarksMaxLength: 500,
  addressMaxLength: 120,
  feePercentMaxDigits: 12,
} as const
const L = CREATE_TRANSFER_LIMITS

const railOrChain = z
  .enum([...PAYMENT_RAILS, ...CHAINS])
  .describe('A fiat payment rail (ACH, WIRE, SWIFT, SEPA, ...), BALANCE for a balance account, or a chain (ETHEREUM, SOLANA, ...)')
const currency = z
  .string()
  .regex(/^[A-Z]{3,5}$/, 'a currency code such as USD or USDC')
  .describe('Currency code')
const accountRef = z.string().min(1).max(L.idMaxLength)
const reference = z.string().max(L.referenceMaxLength)

export const transferSourceBody = z
  .object({
    accountId: accountRef
      .optional()
      .describe('A balance account (acc_ USD, inw_ stablecoin) of the source customer: the transfer is funded by a hold on it at submit'),
    paymentRail: railOrChain.optional().describe('How the funds arrive: a rail or chain (BALANCE, or omitted, with accountId)'),
    currency: currency.optional().describe('Defaults to the balance account’s currency when it holds one'),
    externalAccountId: accountRef.optional().describe('The customer’s external bank account (eba_) the deposit comes from, when known'),
    fromAddress: z.string().min(1).max(L.addressMaxLength).optional().describe('The address a crypto deposit comes from, when known'),
    refundAccountId: accountRef.optional().describe('A balance account of the source customer that receives funds returned to it'),
  })
  .strict()

export const transferDestinationBody = z
  .object({
    accountId: accountRef
      .optional()
      .describe('Where the money goes: a balance account (acc_, inw_), an external bank account (eba_) or an external wallet (ewa_)'),
    externalAccountId: accountRef.optional().describe('Same as accountId for an external account (eba_, ewa_); give one of the two'),
    paymentRail: railOrChain.optional().describe('The payout rail or chain; defaults: BALANCE for a balance account, the wallet’s chain'),
    currency: currency.optional().describe('Defaults to the destination account’s currency when it has one'),
    toAddress: z.string().min(1).max(L.addressMaxLength).optional().describe('An address on `paymentRail` (a chain) to pay out to'),
    counterpartyId: accountRef.optional().describe('The third-party recipient (cp_) the destination account belongs to'),
    wireMessage: reference.optional(),
    achReference: z.string().max(80).optional(),
    swiftReference: z.string().max(140).optional(),
    rtpReference: z.string().max(140).optional(),
    payoutReference: reference.optional(),
  })
  .strict()

const feePercent = z
  .number()
  .min(0)
  .max(1)
  .describe('Percent fee as a fraction (0.015 is 1.5%), of the source amount, rounded half up to minor units')

export const createTransferBody = z
  .object({
    sourceCustomerId: accountRef.optional().describe('The sending customer (cus_); defaults to the source balance account’s owner'),
    source: transferSourceBody,
    destination: transferDestinationBody,
    sourceAmount: positiveMinorAmount
      .optional()
      .describe(withAmountBound('The amount sent, in minor units of the source currency (give this or destinationAmount)')),
    destinationAmount: positiveMinorAmount
      .optional()
      .describe(withAmountBound('The amount delivered, in minor units of the destination currency')),
    developerFeeFixed: minorAmountOrZero
      .optional()
      .describe(withAmountBound('A fixed developer fee in minor units of the source currency, withheld from the amount')),
    developerFeePercent: feePercent.optional(),
    clientReferenceId: reference.optional().describe('Your reference; not unique; the list filters by it exactly'),
    quoteId: accountRef
      .optional()
      .describe('A firm FX quote of the sender’s (fxq_) to price the transfer by; consumed by it (410 once taken or expired)'),
    remarks: z.string().max(L.remarksMaxLength).optional(),
    metadata: accountMetadataSchema.optional(),
    confirm: z.boolean().optional().describe('true (the default): submit now; false: keep a DRAFT until POST /v1/transfers/{id}/submit'),
    draftId: accountRef
      .optional()
      .describe(
        'A registered, APPROVED transfer draft (tdraft_, POST /v1/transfer-drafts): this body less confirm, quoteId and draftId ' +
          'must hash to its draftHash and pay its destinationAccountIds; one draft makes one transfer',
      ),
  })
  .strict()
  .describe('A transfer to create')

export type CreateTransferBody = z.infer<typeof createTransferBody>
