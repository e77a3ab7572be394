// The read models' tables (owned by the projectors in this folder). Projection tables carry no
// foreign keys: a rebuild replaces them one at a time.
import type { BeneficiaryType } from '../domain/counterparty/enums.js'
import type { CustomerResource } from '../domain/customer/resource.js'
import type { Customer } from '../domain/customer/state.js'
import type { Address } from '../domain/shared/address.js'
import type { WebhookSecretEntry } from '../domain/webhook-endpoint/events.js'
import type { Environment } from '../domain/shared/environment.js'
import type { ApiKeyRole } from '../domain/organization/apiKeys.js'
import type { Generated } from 'kysely'
import type { DefaultedTimestamp, Json, Timestamp } from './columnTypes.js'

export interface OrganizationsTable {
  id: string
  name: string
  created_at: Timestamp
  /** The agents switch (migration 0027; default false). */
  agents_enabled: Generated<boolean>
}

export interface ApiKeysTable {
  id: string
  organization_id: string
  environment: Environment
  key_hash: string
  last4: string
  created_at: Timestamp
  revoked_at: Timestamp | null
  /** FULL or AUDITOR (migration 0032; FULL for the keys before it). */
  role: Generated<ApiKeyRole>
}

export interface WebhookEndpointsTable {
  id: string
  organization_id: string
  url: string
  description: string
  filter_types: Json<string[]>
  metadata: Json<Record<string, unknown>>
  disabled: boolean
  secrets: Json<WebhookSecretEntry[]>
  created_at: Timestamp
  updated_at: Timestamp
}

/** Endpoints per organization, kept with the endpoint rows (creation refuses past a limit). */
export interface WebhookEndpointCountsTable {
  organization_id: string
  endpoints: number
}

// ---- Customers, verification sessions, documents (migration 0003) ---------------------------
export interface CustomersTable {
  id: string
  organization_id: string
  type: 'INDIVIDUAL' | 'BUSINESS'
  status: string
  customer_name: string
  email: string | null
  country_code: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** The Customer aggregate's state (domain/customer/state.ts), as of the projection's position. */
  state: Json<Customer>
  /** The resource as reads show it (the phone sealed), for lists to join as it is; null for rows from before 0021. */
  resource: Json<CustomerResource> | null
}

export interface VerificationSessionsTable {
  id: string
  organization_id: string
  customer_id: string
  associated_entity_id: string | null
  status: string
  expires_at: Timestamp
  created_at: Timestamp
}

export interface DocumentsTable {
  id: string
  organization_id: string
  customer_id: string | null
  file_name: string
  content_type: string
  size_bytes: number
  sha256: string
  created_at: Timestamp
}

/** Written by the upload command, not by a projector: a rebuild never touches it. */
export interface DocumentContentsTable {
  document_id: string
  organization_id: string
  content: Buffer
  size_bytes: number
  sha256: string
  created_at: DefaultedTimestamp
}

// ---- Counterparties (migration 0013) ----------------------------------------------------------
export interface CounterpartiesTable {
  id: string
  organization_id: string
  customer_id: string
  name: string
  beneficiary_type: BeneficiaryType
  is_third_party: boolean
  /** Street lines sealed under the counterparty's key (sealedColumns.ts). */
  address: Json<Address | null>
  metadata: Json<Record<string, unknown>>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ReadModelDatabase {
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_endpoint_counts: WebhookEndpointCountsTable
  customers: CustomersTable
  verification_sessions: VerificationSessionsTable
  documents: DocumentsTable
  document_contents: DocumentContentsTable
  counterparties: CounterpartiesTable
}
