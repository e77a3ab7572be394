// Events of the Counterparty aggregate, version 1. The zod schemas are the one source of their
// types; events/catalog.ts registers them. The address's street lines are sensitive (the shared
// address schema marks them), so the event codec seals them under the counterparty's own key.
import { z } from 'zod'
import { addressSchema } from '../shared/address.js'
import { storedMetadataSchema } from '../shared/metadata.js'
import { BENEFICIARY_TYPES } from './enums.js'

export const CounterpartyCreated = z.object({
  counterpartyId: z.string(),
  organizationId: z.string(),
  customerId: z.string(),
  name: z.string(),
  beneficiaryType: z.enum(BENEFICIARY_TYPES),
  /** Null only for a customer's own (first-party) counterparty made before the customer saved an address. */
  address: addressSchema.nullable(),
  isThirdParty: z.boolean(),
  metadata: storedMetadataSchema,
  createdAt: z.string(),
})

export const CounterpartyDeleted = z.object({
  counterpartyId: z.string(),
  deletedAt: z.string(),
})

export const counterpartyEventSchemas = { CounterpartyCreated, CounterpartyDeleted } as const

export type CounterpartyCreatedData = z.infer<typeof CounterpartyCreated>

export type CounterpartyEvent =
  | { type: 'CounterpartyCreated'; data: CounterpartyCreatedData }
  | { type: 'CounterpartyDeleted'; data: z.infer<typeof CounterpartyDeleted> }
