// The read models' JSON columns that hold sensitive fields, kept sealed with their subject's data key
// (events/protection/dataProtection.ts): which leaves (a zod schema of the sensitive parts), whose
// key (the row's aggregate id) and which record (its stream name, as for its events). Projectors
// seal through them, readers open through them, and the CLI's `data seal-existing` seals rows
// written before encryption. Columns stored before encryption open as they are (clear text passes).
import { z } from 'zod'
import { associatedEntityData } from '../domain/customer/schemas/associatedEntity.js'
import { businessProfile } from '../domain/customer/schemas/businessVerification.js'
import { phone } from '../domain/customer/schemas/common.js'
import { individualProfile } from '../domain/customer/schemas/individualVerification.js'
import type { CustomerResource } from '../domain/customer/resource.js'
import type { Customer } from '../domain/customer/state.js'
import { storedPayer } from '../domain/invoice/events.js'
import type { ExistingInvoice } from '../domain/invoice/state.js'
import { originatorSchema } from '../domain/transfer/events.js'
import type { OpenTransferState } from '../domain/transfer/state.js'
import type { TransferResource } from '../domain/transfer/resource.js'
import type { WebhookEndpointState } from '../domain/webhook-endpoint/decider.js'
import { bankCoordinatesSchema } from '../domain/fixed-route/depositCoordinates.js'
import { type WebhookSecretEntry, webhookSecretEntry } from '../domain/webhook-endpoint/events.js'
import { type Address, addressSchema } from '../domain/shared/address.js'
import { ERASED, sensitiveLeaves } from '../domain/shared/sensitive/index.js'
import type { DataProtection } from '../events/protection/dataProtection.js'
import { SEALED_TEXT_PREFIX, isSealedText } from '../events/protection/fieldCipher.js'
import { streams } from '../events/streams.js'
import type { StoredFixedRoute } from './fixedRouteSchema.js'

export type { DataProtection } from '../events/protection/dataProtection.js'

export type SealedJson<T> = {
  /** The schema of the value's sensitive parts (the rest of the value is kept as is). */
  schema: z.ZodType
  /** Whose key seals a row: its aggregate (the row's id), its organization (organization_id) or its customer (customer_id). */
  subjectColumn: 'id' | 'organization_id' | 'customer_id'
  /** Seals every sensitive leaf (ERASED ones stay, and need no key); `subject` is the row's id unless given. */
  seal(protection: DataProtection, id: string, value: T, subject?: string): Promise<T>
  open(protection: DataProtection, id: string, value: T, subject?: string): Promise<T>
  /** Opens a page of values with one key lookup for all their subjects. */
  openMany(protection: DataProtection, items: readonly { id: string; value: T; subject?: string }[]): Promise<T[]>
  /** True when no sensitive leaf is held in clear (each is sealed or ERASED). */
  isSealed(value: T): boolean
}

const hasSealedLeaf = (schema: z.ZodType, value: unknown) => sensitiveLeaves(schema, value).some((leaf) => isSealedText(leaf.value))

function sealedJson<T>(
  schema: z.ZodType,
  recordOf: (id: string) => string,
  subjectColumn: SealedJson<T>['subjectColumn'] = 'id',
): SealedJson<T> {
  // The subject is the row's aggregate id by default: erasing it (shredding its key) erases the row's leaves.
  return {
    schema,
    subjectColumn,
    // Stable sealing: a rebuild writes the same bytes, so `projections verify` compares rows as they are.
    seal: (protection, id, value, subject = id) => protection.sealStable(schema, value, subject, recordOf(id)),
    open: async (protection, id, value, subject = id) =>
      hasSealedLeaf(schema, value) ? protection.open(schema, value, subject, recordOf(id)) : value,
    async openMany(protection, items) {
      // Only rows holding sealed text need their key (most customers keep no personal data in a
      // list's reach; a subject without a key is looked up every time, never cached).
      const sealedItems = items.filter((item) => hasSealedLeaf(schema, item.value))
      if (sealedItems.length === 0) return items.map((item) => item.value)
      const keys = await protection.keys.keysForReading(sealedItems.map((item) => item.subject ?? item.id))
      return items.map((item) => {
        const key = keys.get(item.subject ?? item.id)
        return key ? protection.openWith(key, schema, item.value, recordOf(item.id)) : item.value
      })
    },
    isSealed: (value) => sensitiveLeaves(schema, value).every((leaf) => leaf.value === ERASED || isSealedText(leaf.value)),
  }
}

/** customers.state: the Customer aggregate's state; its phone and profiles' personal data sealed. */
export const sealedCustomerState = sealedJson<Customer>(
  z.object({
    phone: phone.nullable(),
    individual: individualProfile,
    business: businessProfile,
    associated: z.array(z.object({ data: associatedEntityData })),
  }),
  (id) => streams.customer(id),
)

/**
 * customers.state as a list shows it: only the phone is opened (a list item shows no other
 * personal field), the rest stays sealed in the returned state. A page of 50 then opens 50 fields,
 * not every profile field of 50 customers.
 */
export const listedCustomerState = sealedJson<Customer>(z.object({ phone: phone.nullable() }), (id) => streams.customer(id))

/** customers.resource: the customer as reads show it, its phone sealed (the one personal field a resource shows). */
export const sealedCustomerResource = sealedJson<CustomerResource>(z.object({ phone: phone.nullable() }), (id) => streams.customer(id))

const secretsSchema = z.array(webhookSecretEntry)

/**
 * webhook_endpoints.secrets: the signing secrets, sealed under the organization's key (as their
 * events are: domain/webhook-endpoint/index.ts) and bound to the endpoint's record.
 */
export const sealedEndpointSecrets = sealedJson<WebhookSecretEntry[]>(secretsSchema, (id) => streams.webhookEndpoint(id), 'organization_id')

/** webhook_delivery_endpoints.state: the subscriber's endpoint snapshot, its secrets sealed the same way. */
export const sealedEndpointSnapshot = sealedJson<WebhookEndpointState>(
  z.object({ secrets: secretsSchema.optional() }),
  (id) => streams.webhookEndpoint(id),
  'organization_id',
)

/** counterparties.address: the beneficiary's address, its street lines sealed under the customer's key (as its events). */
export const sealedCounterpartyAddress = sealedJson<Address | null>(
  addressSchema.nullable(),
  (id) => streams.counterparty(id),
  'customer_id',
)

/**
 * transfers.state: the transfer's state, its remitter's name and account number (the funding's originator, or a
 * sweep's from its creation) sealed under the source customer's key (as its events are: domain/transfer/index.ts).
 */
export const sealedTransferState = sealedJson<OpenTransferState>(
  z.object({
    funding: z.object({ originator: originatorSchema.nullable() }).nullable(),
    // A fixed route's sweep knows its remitter from creation.
    created: z.object({ originator: originatorSchema.nullable().optional() }),
  }),
  (id) => streams.transfer(id),
  'customer_id',
)

/** A transfer's stored resource: its remitter's name (the account number is masked already). */
export const sealedTransferResource = sealedJson<TransferResource>(
  z.object({ source: z.object({ originator: z.object({ name: originatorSchema.shape.name }).nullable() }) }),
  (id) => streams.transfer(id),
  'customer_id',
)

const coordinates = bankCoordinatesSchema.shape

/**
 * fixed_routes.resource: the route's dedicated deposit coordinates (the full account number, the
 * IBAN, the beneficiary's name and address), sealed under the customer's key and bound to the
 * route's account stream, as its AccountOpened event seals them.
 */
export const sealedFixedRouteResource = sealedJson<StoredFixedRoute>(
  z.object({
    sourceAccount: z.object({
      depositInstructions: z
        .object({
          accountNumber: coordinates.accountNumber,
          iban: coordinates.iban,
          beneficiaryName: coordinates.beneficiaryName,
          beneficiaryAddress: coordinates.beneficiaryAddress,
        })
        .nullable(),
    }),
  }),
  (id) => streams.account(id),
  'customer_id',
)

/** An invoice's state: its payer's name, email and street lines, under the payee customer's key. */
export const sealedInvoiceState = sealedJson<ExistingInvoice>(
  z.object({ content: z.object({ payer: storedPayer }) }),
  (id) => streams.invoice(id),
  'customer_id',
)

/** True when a JSON text holds a sealed value (it must be opened before it is shown). */
export const holdsSealedText = (jsonText: string): boolean => jsonText.includes(SEALED_TEXT_PREFIX)

/** Every sealed JSON column of the read side, each keyed by its table's `id` column. */
export const SEALED_JSON_COLUMNS: readonly {
  table: 'customers' | 'webhook_endpoints' | 'webhook_delivery_endpoints' | 'counterparties' | 'transfers' | 'fixed_routes' | 'invoices'
  column: string
  sealed: SealedJson<unknown>
}[] = [
  { table: 'customers', column: 'state', sealed: sealedCustomerState },
  { table: 'customers', column: 'resource', sealed: sealedCustomerResource },
  { table: 'webhook_endpoints', column: 'secrets', sealed: sealedEndpointSecrets },
  { table: 'webhook_delivery_endpoints', column: 'state', sealed: sealedEndpointSnapshot },
  { table: 'counterparties', column: 'address', sealed: sealedCounterpartyAddress },
  { table: 'transfers', column: 'state', sealed: sealedTransferState },
  { table: 'transfers', column: 'resource', sealed: sealedTransferResource },
  { table: 'fixed_routes', column: 'resource', sealed: sealedFixedRouteResource },
  { table: 'invoices', column: 'state', sealed: sealedInvoiceState },
]
