// Projects webhook endpoints, secrets included, sealed under the endpoint's key (sealedColumns.ts;
// GET .../secret opens them). A row holds the aggregate's whole state, so a batch's events are folded
// per endpoint with the decider's own evolve, from the state read back (and opened) from its row or
// from nothing for an endpoint created in the batch, and each row is written once (sealed) from the
// result: a batch costs a handful of statements however many events and endpoints it holds (a rebuild
// replays a million events in batches of a thousand).
import { type Kysely, type Selectable, sql } from 'kysely'
import { type WebhookEndpointState, webhookEndpointDecider } from '../domain/webhook-endpoint/decider.js'
import type { WebhookEndpointEvent, WebhookSecretEntry } from '../domain/webhook-endpoint/events.js'
import type { RecordedEvent } from '../events/store/port.js'
import type { JsonText } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { ReadDatabase, WebhookEndpointsTable } from './schema.js'
import type { ProjectionContext, Projector } from './runtime/projector.js'
import { sealedEndpointSecrets } from './sealedColumns.js'

type Endpoint = Extract<WebhookEndpointState, { status: 'active' | 'deleted' }>

/**
 * The secrets of a row read without them: only a rotation changes secrets, so an endpoint the batch does
 * not rotate is folded without them and written back without them (the row keeps its own, sealed). The
 * write that includes secrets refuses a state holding this very array.
 */
const SECRETS_LEFT_IN_ROW: WebhookSecretEntry[] = []

/** The columns a state is read from, secrets apart (read only for a rotation). */
const STATE_COLUMNS = [
  'id',
  'organization_id',
  'url',
  'description',
  'filter_types',
  'metadata',
  'disabled',
  'created_at',
  'updated_at',
] as const

// ---- Evolve: row to state, event, state to row (pure) ----------------------------------------
function stateOf(row: Omit<Selectable<WebhookEndpointsTable>, 'secrets'>, secrets: WebhookSecretEntry[]): Endpoint {
  return {
    status: 'active',
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    description: row.description,
    filterTypes: row.filter_types,
    metadata: row.metadata,
    disabled: row.disabled,
    secrets,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

function evolve(state: WebhookEndpointState, event: WebhookEndpointEvent): Endpoint {
  const next = webhookEndpointDecider.evolve(state, event)
  if (next.status === 'none') throw new Error(`endpoint ${event.data.endpointId} has no state after ${event.type}`)
  return next
}

/**
 * The rows of states for the write statements' one JSON parameter: the JSON columns as values, not as
 * JSON text; the secrets (already sealed) only when they are written.
 */
function jsonRows(states: Endpoint[], withSecrets: boolean): string {
  return JSON.stringify(
    states.map((e) => {
      if (withSecrets && e.secrets === SECRETS_LEFT_IN_ROW) throw new Error(`endpoint ${e.id}: its secrets were not read, so not written`)
      return {
        id: e.id,
        organization_id: e.organizationId,
        url: e.url,
        description: e.description,
        filter_types: e.filterTypes,
        metadata: e.metadata,
        disabled: e.disabled,
        ...(withSecrets ? { secrets: e.secrets } : {}),
        created_at: e.createdAt,
        updated_at: e.updatedAt,
      }
    }),
  )
}

// ---- Read and write ---------------------------------------------------------------------------
/** The states with their secrets sealed; the keys looked up in one statement first (then cached). */
async function sealed(ctx: ProjectionContext, states: Endpoint[]): Promise<Endpoint[]> {
  if (states.length === 0) return states
  await ctx.protection.keys.keysForReading(states.map((e) => e.organizationId))
  return Promise.all(
    states.map(async (e) => ({ ...e, secrets: await sealedEndpointSecrets.seal(ctx.protection, e.id, e.secrets, e.organizationId) })),
  )
}

/** The endpoints' rows as they stand, in one statement; the secrets of `rotating` read and opened in another. */
async function readStates(
  db: Kysely<ReadDatabase>,
  ctx: ProjectionContext,
  ids: string[],
  rotating: ReadonlySet<string>,
): Promise<Map<string, Endpoint>> {
  if (ids.length === 0) return new Map()
  const byIds = (list: string[]) => sql<boolean>`id = ANY (${list}::text[])`
  const rows = await db.selectFrom('webhook_endpoints').select(STATE_COLUMNS).where(byIds(ids)).execute()
  const withSecrets =
    rotating.size === 0
      ? []
      : await db
          .selectFrom('webhook_endpoints')
          .select(['id', 'organization_id', 'secrets'])
          .where(byIds([...rotating]))
          .execute()
  const opened = await sealedEndpointSecrets.openMany(
    ctx.protection,
    withSecrets.map((row) => ({ id: row.id, value: row.secrets, subject: row.organization_id })),
  )
  const openedOf = new Map(withSecrets.map((row, i) => [row.id, opened[i]!]))
  return new Map(rows.map((row) => [row.id, stateOf(row, openedOf.get(row.id) ?? SECRETS_LEFT_IN_ROW)]))
}

// Each write is one statement whose text is the same for any number of rows (one JSON parameter): a
// multi-row VALUES list would be compiled, sent and planned anew for every size, which cost more than
// the rows themselves.
function insertEndpoints(db: Kysely<ReadDatabase>, states: Endpoint[]) {
  return db
    .insertInto('webhook_endpoints')
    .columns(['id', 'organization_id', 'url', 'description', 'filter_types', 'metadata', 'disabled', 'secrets', 'created_at', 'updated_at'])
    .expression(
      sql`SELECT r.id, r.organization_id, r.url, r.description, r.filter_types, r.metadata, r.disabled, r.secrets,
        r.created_at, r.updated_at
      FROM json_to_recordset(${jsonRows(states, true)}::json) AS r(id text, organization_id text, url text, description text,
        filter_types jsonb, metadata jsonb, disabled boolean, secrets jsonb, created_at timestamptz, updated_at timestamptz)`,
    )
    .execute()
}

/** A changed row as the update reads it from the JSON parameter. */
type ChangedRow = {
  id: string
  url: string
  description: string
  filter_types: JsonText<string[]>
  metadata: JsonText<Record<string, unknown>>
  disabled: boolean
  secrets: JsonText<WebhookSecretEntry[]>
  updated_at: string
}

/** Writes the states' changed columns; their secrets too when `withSecrets` (rotated in this batch). */
function updateEndpoints(db: Kysely<ReadDatabase>, states: Endpoint[], withSecrets: boolean) {
  const changed = sql<ChangedRow>`json_to_recordset(${jsonRows(states, withSecrets)}::json)`.as<'r'>(
    sql`r(id text, url text, description text, filter_types jsonb, metadata jsonb, disabled boolean, secrets jsonb,
      updated_at timestamptz)`,
  )
  return db
    .updateTable('webhook_endpoints')
    .from(changed)
    .set((eb) => ({
      url: eb.ref('r.url'),
      description: eb.ref('r.description'),
      filter_types: eb.ref('r.filter_types'),
      metadata: eb.ref('r.metadata'),
      disabled: eb.ref('r.disabled'),
      ...(withSecrets ? { secrets: eb.ref('r.secrets') } : {}),
      updated_at: eb.ref('r.updated_at'),
    }))
    .whereRef('webhook_endpoints.id', '=', 'r.id')
    .execute()
}

function deleteEndpoints(db: Kysely<ReadDatabase>, ids: string[]) {
  return db
    .deleteFrom('webhook_endpoints')
    .where(sql<boolean>`id = ANY (${ids}::text[])`)
    .execute()
}

/**
 * Adds each organization's change (endpoints created less deleted) to its count: a rise upserted (the first
 * endpoint of an organization makes its row, whichever transaction gets there first), a fall updated (its
 * row exists, and an insert of a negative count would fail the row's check before it met the conflict).
 */
async function countEndpoints(db: Kysely<ReadDatabase>, changes: Map<string, number>): Promise<void> {
  const rows = (rise: boolean) =>
    JSON.stringify(
      [...changes]
        .filter(([, change]) => (rise ? change > 0 : change < 0))
        .map(([organization_id, endpoints]) => ({ organization_id, endpoints })),
    )
  const recordset = (json: string) => sql<{ organization_id: string; endpoints: number }>`json_to_recordset(${json}::json)`
  if ([...changes.values()].some((change) => change > 0))
    await db
      .insertInto('webhook_endpoint_counts')
      .columns(['organization_id', 'endpoints'])
      .expression(sql`SELECT c.organization_id, c.endpoints FROM ${recordset(rows(true))} AS c(organization_id text, endpoints int)`)
      .onConflict((oc) =>
        oc
          .column('organization_id')
          .doUpdateSet((eb) => ({ endpoints: eb('webhook_endpoint_counts.endpoints', '+', eb.ref('excluded.endpoints')) })),
      )
      .execute()
  if ([...changes.values()].some((change) => change < 0))
    await db
      .updateTable('webhook_endpoint_counts')
      .from(recordset(rows(false)).as<'c'>(sql`c(organization_id text, endpoints int)`))
      .set((eb) => ({ endpoints: eb('webhook_endpoint_counts.endpoints', '+', eb.ref('c.endpoints')) }))
      .whereRef('webhook_endpoint_counts.organization_id', '=', 'c.organization_id')
      .execute()
}

// ---- Apply ------------------------------------------------------------------------------------
/**
 * Folds the batch per endpoint, in event order within each endpoint; endpoints do not depend on one
 * another (an organization's count is a sum), so each row's net effect is written once: inserted
 * (created here), updated, or deleted (it existed and was deleted here; created and deleted here, it
 * leaves nothing).
 */
async function applyBatch(db: Kysely<ReadDatabase>, events: RecordedEvent[], ctx: ProjectionContext): Promise<void> {
  const byEndpoint = new Map<string, WebhookEndpointEvent[]>()
  for (const recorded of events) {
    const event = parsedEvent<WebhookEndpointEvent>(recorded)
    const list = byEndpoint.get(event.data.endpointId)
    if (list) list.push(event)
    else byEndpoint.set(event.data.endpointId, [event])
  }
  const withRows = [...byEndpoint].filter(([, list]) => list[0]!.type !== 'WebhookEndpointCreated').map(([id]) => id)
  const rotating = new Set(withRows.filter((id) => byEndpoint.get(id)!.some((e) => e.type === 'WebhookEndpointSecretRotated')))
  const before = await readStates(db, ctx, withRows, rotating)
  const inserted: Endpoint[] = []
  /** Updated rows whose secrets were rotated here (in clear), and those whose secrets stay in the row. */
  const rotated: Endpoint[] = []
  const updated: Endpoint[] = []
  const deleted: string[] = []
  const counts = new Map<string, number>()
  const count = (organizationId: string, change: number) => counts.set(organizationId, (counts.get(organizationId) ?? 0) + change)
  for (const [id, list] of byEndpoint) {
    const existing = before.get(id)
    if (!existing && list[0]!.type !== 'WebhookEndpointCreated') throw new Error(`endpoint ${id} has no row to apply ${list[0]!.type} to`)
    let after = evolve(existing ?? webhookEndpointDecider.initialState(), list[0]!)
    for (const event of list.slice(1)) after = evolve(after, event)
    if (existing && after.status === 'active') (rotating.has(id) ? rotated : updated).push(after)
    else if (existing) {
      deleted.push(id)
      count(existing.organizationId, -1)
    } else if (after.status === 'active') {
      inserted.push(after)
      count(after.organizationId, 1)
    }
  }
  if (inserted.length > 0) await insertEndpoints(db, await sealed(ctx, inserted))
  if (rotated.length > 0) await updateEndpoints(db, await sealed(ctx, rotated), true)
  if (updated.length > 0) await updateEndpoints(db, updated, false)
  if (deleted.length > 0) await deleteEndpoints(db, deleted)
  await countEndpoints(db, counts)
}

export const webhookEndpointsProjector: Projector = {
  name: 'webhook_endpoints',
  tables: ['webhook_endpoints', 'webhook_endpoint_counts'],
  handles: new Set(['WebhookEndpointCreated', 'WebhookEndpointUpdated', 'WebhookEndpointSecretRotated', 'WebhookEndpointDeleted']),
  applyMany: applyBatch,
  apply: (db, recorded, ctx) => applyBatch(db, [recorded], ctx),
}
