// The body of POST /v1/customers/{customerId}/fixed-routes (the spec leaves the create operation
// "not shown"; shaped like Bridge's virtual accounts and liquidation addresses): what the route
// accepts (a fiat currency on its rails, or a crypto asset on a chain), where every deposit sweeps
// (an account, with the destination currency and rail), the fee withheld on each sweep, the refund
// account, the sender banks it accepts, the minimum, the correspondent bank, documents, metadata.
import { z } from 'zod'
import { accountMetadataSchema } from '../../domain/account/accountMetadata.js'
import { FIXED_ROUTE_LIMITS as L } from '../../domain/fixed-route/limits.js'
import { CHAINS, chainSchema } from '../../domain/shared/chain/index.js'
import { minorAmountOrZero, positiveMinorAmount, withAmountBound } from '../../domain/shared/money/index.js'
import { PAYMENT_RAILS } from '../../domain/shared/paymentRails.js'

const id = z.string().min(1).max(L.idMaxLength)
const name = z.string().trim().min(1).max(L.nameMaxLength)

export const FIXED_ROUTE_SOURCE_CURRENCIES = ['USD', 'EUR', 'USDC', 'USDT', 'USAT', 'BTC'] as const

export const createFixedRouteBody = z
  .object({
    sourceCurrency: z
      .enum(FIXED_ROUTE_SOURCE_CURRENCIES)
      .describe('What deposits arrive in: USD or EUR (a virtual bank account, vba_), or a crypto asset (a deposit wallet, inw_)'),
    sourceRails: z
      .array(z.enum(['ACH', 'WIRE', 'SWIFT', 'SEPA']))
      .min(1)
      .max(L.maxSourceRails)
      .optional()
      .describe('Fiat: the rails deposits may arrive on (USD: ACH, WIRE, SWIFT; EUR: SEPA, SWIFT). Default: ACH and WIRE, or SEPA'),
    chain: chainSchema.optional().describe('Crypto: the chain deposits arrive on (the deposit address is valid there)'),
    sweepTargetAccountId: id.describe(
      "Where every deposit sweeps: a balance account (acc_, inw_), an external bank account (eba_) or wallet (ewa_) of the customer's, " +
        'or a treasury wallet of the organization',
    ),
    destinationCurrency: z
      .string()
      .regex(/^[A-Z]{3,5}$/)
      .optional()
      .describe("Defaults to the target account's currency"),
    destinationRail: z
      .enum([...PAYMENT_RAILS, ...CHAINS])
      .optional()
      .describe('BALANCE for a balance account; the payout rail or chain of an external account (default: its first)'),
    developerFeeFixed: minorAmountOrZero
      .optional()
      .describe(withAmountBound('A fixed fee in minor units of the source currency, withheld from every sweep')),
    developerFeePercent: z.number().min(0).max(1).optional().describe('A fraction of each deposit (0.01 is 1%), withheld, half up'),
    refundAccountId: id.optional().describe("A balance account of the customer's in the source currency: where returned sweeps go"),
    allowedSenderBanks: z
      .array(
        z
          .object({ bankName: name.optional(), routingNumber: z.string().max(34).optional(), swiftBic: z.string().max(34).optional() })
          .strict(),
      )
      .max(L.maxAllowedSenderBanks)
      .optional()
      .describe('Fiat: the only banks deposits are accepted from; a deposit without sender-bank data is then held (fail closed)'),
    minimumAmount: positiveMinorAmount
      .optional()
      .describe(withAmountBound('Minor units of the source currency: smaller deposits are held, not swept')),
    correspondentBank: z
      .object({ name, swiftCode: z.string().max(34), accountNumber: z.string().trim().min(1).max(34) })
      .strict()
      .optional()
      .describe("SWIFT routes: the correspondent bank deposits pass through (default: the sandbox's)"),
    documentIds: z.array(id).max(L.maxDocumentIds).optional().describe("Uploaded documents (doc_) of the customer's supporting the route"),
    metadata: accountMetadataSchema.optional(),
  })
  .strict()
  .describe('A fixed route to create')

export type CreateFixedRouteBody = z.infer<typeof createFixedRouteBody>
