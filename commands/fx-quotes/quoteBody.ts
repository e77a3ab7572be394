// The body of POST /v1/fx/quotes: the pair's six fields, the customer the quote is for, and the
// amount on exactly one side, in minor units.
import { z } from 'zod'
import { pairQuerySchema } from '../../domain/fx/resource.js'
import { positiveMinorAmount, withAmountBound } from '../../domain/shared/money/index.js'

export const createQuoteBody = pairQuerySchema
  .omit({ onBehalfOf: true })
  .extend({
    customerId: z
      .string()
      .regex(/^cus_[0-9a-z]{26}$/, 'must be a customer id (cus_...)')
      .describe('The customer the quote is for: its pricing, its capabilities, and who may trade it'),
    sourceAmount: positiveMinorAmount.optional().describe(withAmountBound('What the customer sends, minor units of the source currency')),
    destinationAmount: positiveMinorAmount
      .optional()
      .describe(withAmountBound('What is delivered, minor units of the destination currency (the source is priced to reach it)')),
  })
  .superRefine((body, ctx) => {
    if ((body.sourceAmount === undefined) === (body.destinationAmount === undefined))
      ctx.addIssue({ code: 'custom', path: ['sourceAmount'], message: 'give exactly one of sourceAmount and destinationAmount' })
  })
