// Events of an FX quote: created firm (its prices fixed until expiresAt), then accepted by one trade
// or expired. The pair is stored as its six flat fields; amounts are minor-unit strings.
import { z } from 'zod'
import { chainSchema } from '../shared/chain/index.js'
import { paymentRailSchema } from '../shared/paymentRails.js'

const id = z.string().max(64)
const minor = z.string().regex(/^\d{1,40}$/)
const decimal = z.string().regex(/^\d{1,40}(\.\d{1,40})?$/)
const currency = z.string().regex(/^[A-Z]{3,5}$/)

export const flatPairSchema = z.object({
  sourceCurrency: currency,
  sourceNetwork: chainSchema.optional(),
  sourceRail: paymentRailSchema.optional(),
  destinationCurrency: currency,
  destinationNetwork: chainSchema.optional(),
  destinationRail: paymentRailSchema.optional(),
})

export const FxQuoteCreated = z.object({
  quoteId: id,
  organizationId: id,
  customerId: id,
  pair: flatPairSchema,
  /** The side the caller gave the amount on; the other was priced. */
  amountSide: z.enum(['SOURCE', 'DESTINATION']),
  sourceAmountMinor: minor,
  destinationAmountMinor: minor,
  /** The spread, as money withheld from the source amount. */
  feeMinor: minor,
  spreadBps: z.number().int().min(0).max(1000),
  /** Destination minor units per source minor unit, everything included (the transfer's exchangeRate). */
  exchangeRate: decimal,
  /** Destination major units per source major unit, everything included. */
  rate: decimal,
  referenceRate: decimal,
  referenceProvider: z.string().max(64),
  referenceRateAsOf: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
})

export const FxQuoteAccepted = z.object({ quoteId: id, organizationId: id, tradeId: id, acceptedAt: z.iso.datetime() })

export const FxQuoteExpired = z.object({
  quoteId: id,
  organizationId: id,
  customerId: id,
  expiresAt: z.iso.datetime(),
  expiredAt: z.iso.datetime(),
})

export const fxQuoteEventSchemas = { FxQuoteCreated, FxQuoteAccepted, FxQuoteExpired } as const

export type FxQuoteEvent =
  | { type: 'FxQuoteCreated'; data: z.infer<typeof FxQuoteCreated> }
  | { type: 'FxQuoteAccepted'; data: z.infer<typeof FxQuoteAccepted> }
  | { type: 'FxQuoteExpired'; data: z.infer<typeof FxQuoteExpired> }
