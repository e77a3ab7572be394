// Reads of the webhook_endpoints read model, always scoped to one organization.
import type { Kysely, Selectable } from 'kysely'
import type { WebhookEndpointResource } from '../../domain/webhook-endpoint/resource.js'
import type { ReadDatabase, WebhookEndpointsTable } from '../../projections/schema.js'
import { type CursorQuery, unknownCursor } from '../../http/pagination/cursorPage.js'
import { idCursorPage } from '../sql/idCursorPage.js'
import { isoTimestamp } from '../sql/isoTimestamp.js'

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>
/** What a list shows of an endpoint: no secrets, timestamps already ISO text. */
export type ListedEndpointRow = Pick<WebhookEndpointRow, 'id' | 'url' | 'description' | 'filter_types' | 'disabled' | 'metadata'> & {
  created_at: string
  updated_at: string
}

export function rowToView(row: WebhookEndpointRow): WebhookEndpointResource {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    filterTypes: row.filter_types,
    disabled: row.disabled,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

/** The list item: the same resource a GET of the endpoint answers. */
export function listedToResource(row: ListedEndpointRow): WebhookEndpointResource {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    filterTypes: row.filter_types,
    disabled: row.disabled,
    metadata: row.metadata,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export async function findEndpoint(db: Kysely<ReadDatabase>, organizationId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** How many endpoints the organization has (kept by the projector; 0 before its first). */
export async function countEndpoints(db: Kysely<ReadDatabase>, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoint_counts')
    .select('endpoints')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  return row?.endpoints ?? 0
}

/**
 * One page plus one row, newest first (or, with ending_before, the rows just newer, reordered).
 * A cursor that names no endpoint of the organization is refused (unknownCursor).
 */
export async function listEndpoints(db: Kysely<ReadDatabase>, organizationId: string, query: CursorQuery): Promise<ListedEndpointRow[]> {
  const cursor = query.starting_after ?? query.ending_before
  if (cursor !== undefined) {
    const found = await db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', cursor)
      .executeTakeFirst()
    if (!found) throw unknownCursor(query)
  }
  const q = db
    .selectFrom('webhook_endpoints')
    .select([
      'id',
      'url',
      'description',
      'filter_types',
      'disabled',
      'metadata',
      isoTimestamp('created_at').as('created_at'),
      isoTimestamp('updated_at').as('updated_at'),
    ])
    .where('organization_id', '=', organizationId)
  return idCursorPage(q, query)
}
