// What the FX read operations take and answer: the pair query (the spec's six pair fields and
// onBehalfOf), a pair, an indicative rate and an organization's FX settings.
import { z } from 'zod'
import { chainSchema } from '../shared/chain/index.js'
import { paymentRailSchema } from '../shared/paymentRails.js'
import { fxSettingsSchema, sandboxProviderSchema } from '../fx-settings/settings.js'
import { FX_RATE_PLACES } from './indicativeRate.js'
import type { FxSide } from './pair.js'

const currency = (side: string) =>
  z
    .string()
    .regex(/^[A-Z]{3,5}$/, 'must be an upper-case currency code')
    .describe(`${side} currency: a stablecoin (USDC, USDT, USAT) or a fiat ISO 4217 code`)

export const customerIdQuery = z
  .string()
  .regex(/^cus_[0-9a-z]{26}$/, 'must be a customer id (cus_...)')
  .describe('Acting for this customer: its pairs and its own pricing (X-On-Behalf-Of names it too; the two must agree)')

export const pairQuerySchema = z.object({
  sourceCurrency: currency('Source'),
  sourceNetwork: chainSchema.optional().describe('Required when the source is crypto; omitted when it is fiat'),
  sourceRail: paymentRailSchema
    .optional()
    .describe('Required when the source is fiat (SEPA or SEPA_INSTANT for EUR, FASTER_PAYMENTS for GBP); omitted when it is crypto'),
  destinationCurrency: currency('Destination'),
  destinationNetwork: chainSchema.optional().describe('Required when the destination is crypto; omitted when it is fiat'),
  destinationRail: paymentRailSchema
    .optional()
    .describe('Required when the destination is fiat (SEPA for EUR, ACH for USD, SWIFT for any fiat); omitted when it is crypto'),
  onBehalfOf: customerIdQuery.optional(),
})

export const pairListQuerySchema = z.object({
  onBehalfOf: customerIdQuery.optional(),
  sourceCurrency: currency('Only pairs from this').optional(),
  destinationCurrency: currency('Only pairs to this').optional(),
})

export const fxSideResource = z.object({
  currency: z.string(),
  network: chainSchema.optional().describe('Crypto sides only'),
  rail: paymentRailSchema.optional().describe('Fiat sides only'),
})

export const sideResource = (side: FxSide): z.infer<typeof fxSideResource> =>
  side.kind === 'CRYPTO' ? { currency: side.currency, network: side.network } : { currency: side.currency, rail: side.rail }

export const fxLimitsResource = z
  .object({
    sourceCurrency: z.string(),
    min: z.string().describe('Smallest source amount a quote takes, minor units'),
    max: z.string().describe('Largest source amount a quote takes, minor units'),
  })
  .describe('The corridor’s amount limits (sandbox: small test limits)')

export const fxPairResource = z.object({
  source: fxSideResource,
  destination: fxSideResource,
  kind: z.enum(['STABLECOIN', 'FIAT']).describe('FIAT when either side is fiat'),
  limits: fxLimitsResource,
})

export const fxPairListResource = z.object({
  data: z.array(fxPairResource),
  onBehalfOf: z.string().nullable().describe('The customer the list was narrowed to, or null'),
  total: z.number().int(),
  asOf: z.string().describe('When the list was made; it is cached about 30 seconds'),
})

const rate = (what: string) => z.string().describe(`${what}, a decimal with at most ${FX_RATE_PLACES} places`)

export const fxRateResource = z.object({
  source: fxSideResource,
  destination: fxSideResource,
  rate: rate('Indicative rate with the spread applied: destination major units per source major unit'),
  inverseRate: rate('The same rate the other way: source major units per destination major unit'),
  referenceRate: rate('Mid-market rate, no spread: destination major units per source major unit'),
  inverseReferenceRate: rate('Mid-market rate the other way'),
  referenceProvider: z.string(),
  referenceRateAsOf: z.string(),
  spreadBps: z.number().int().describe('The spread applied, in basis points of the mid-market rate'),
  pricing: z.enum(['ORGANIZATION', 'CUSTOMER']).describe('CUSTOMER when onBehalfOf has pricing of its own'),
  onBehalfOf: z.string().nullable(),
  asOf: z.string().describe('When this rate was computed; the same answer is served for about 30 seconds'),
  cachedUntil: z.string(),
})

export const fxSettingsResource = fxSettingsSchema.extend({
  organizationId: z.string(),
  corridorLimitsUsd: z.object({ min: z.string(), max: z.string() }).describe('Each corridor’s limits in whole US dollars'),
  sandboxProvider: sandboxProviderSchema.optional().describe('Sandbox only: how the sandbox liquidity provider behaves for you'),
  updatedAt: z.string().nullable().describe('null: never configured, the environment’s defaults apply'),
})

export const fxSettingsChangeBody = fxSettingsSchema.partial().extend({
  sandboxProvider: sandboxProviderSchema.partial().optional(),
})

export const fxCustomerPricingBody = z.object({
  spreadBps: fxSettingsSchema.shape.spreadBps.nullable().describe('The customer’s own spread; null returns it to the organization’s'),
})

export const fxCustomerPricingResource = z.object({
  customerId: z.string(),
  spreadBps: z.number().int().nullable().describe('The customer’s own spread; null when the organization’s applies'),
  effectiveSpreadBps: z.number().int().describe('The spread its rates and quotes carry'),
  pricing: z.enum(['ORGANIZATION', 'CUSTOMER']),
})
