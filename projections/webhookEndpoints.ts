// Projects webhook endpoints, secrets included, sealed under the endpoint's key (sealedColumns.ts;
// GET .../secret opens them). A row holds the aggregate's whole state, so each event is applied
// with the decider's own evolve to the state read back (and opened) from the row, and the row is
// written (sealed) from the result.
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely'
import { type WebhookEndpointState, webhookEndpointDecider } from '../domain/webhook-endpoint/decider.js'
import type { WebhookEndpointEvent } from '../domain/webhook-endpoint/events.js'
import type { RecordedEvent } from '../events/store/port.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { ReadDatabase, WebhookEndpointsTable } from './schema.js'
import type { ProjectionContext, Projector } from './runtime/projector.js'
import { sealedEndpointSecrets } from './sealedColumns.js'

type Endpoint = Extract<WebhookEndpointState, { status: 'active' | 'deleted' }>
type Created = Extract<WebhookEndpointEvent, { type: 'WebhookEndpointCreated' }>
type Changed = Extract<WebhookEndpointEvent, { type: 'WebhookEndpointUpdated' | 'WebhookEndpointSecretRotated' }>

// ---- Evolve: row to state, event, state to row (pure) ----------------------------------------
function stateOf(row: Selectable<WebhookEndpointsTable>): Endpoint {
  return {
    status: 'active',
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    description: row.description,
    filterTypes: row.filter_types,
    metadata: row.metadata,
    disabled: row.disabled,
    secrets: row.secrets,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

function evolve(state: WebhookEndpointState, event: WebhookEndpointEvent): Endpoint {
  const next = webhookEndpointDecider.evolve(state, event)
  if (next.status === 'none') throw new Error(`endpoint ${event.data.endpointId} has no state after ${event.type}`)
  return next
}

/** The row of a state whose secrets are already sealed. */
function endpointRow(e: Endpoint) {
  return {
    id: e.id,
    organization_id: e.organizationId,
    url: e.url,
    description: e.description,
    filter_types: toJson(e.filterTypes),
    metadata: toJson(e.metadata),
    disabled: e.disabled,
    secrets: toJson(e.secrets),
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  } satisfies Insertable<WebhookEndpointsTable>
}

// ---- Write ------------------------------------------------------------------------------------
/** The states with their secrets sealed; the keys looked up in one statement first (then cached). */
async function sealed(ctx: ProjectionContext, states: Endpoint[]): Promise<Endpoint[]> {
  await ctx.protection.keys.keysForReading(states.map((e) => e.organizationId))
  return Promise.all(
    states.map(async (e) => ({ ...e, secrets: await sealedEndpointSecrets.seal(ctx.protection, e.id, e.secrets, e.organizationId) })),
  )
}

/**
 * Inserts created endpoints with one statement whose text is the same for any number of rows (one
 * JSON parameter): a multi-row VALUES list would be compiled, sent and planned anew for every
 * size, which cost more than the rows themselves. The same statement adds them to their
 * organizations' counts (a CTE), so the count costs no extra round trip.
 */
async function insertCreated(db: Kysely<ReadDatabase>, created: Created[], ctx: ProjectionContext) {
  const states = await sealed(
    ctx,
    created.map((event) => evolve(webhookEndpointDecider.initialState(), event)),
  )
  // The JSON columns go in as values inside the one JSON parameter, not as JSON text.
  const rows = states.map((e) => ({ ...endpointRow(e), filter_types: e.filterTypes, metadata: e.metadata, secrets: e.secrets }))
  return db
    .with('inserted', (qb) =>
      qb
        .insertInto('webhook_endpoints')
        .columns([
          'id',
          'organization_id',
          'url',
          'description',
          'filter_types',
          'metadata',
          'disabled',
          'secrets',
          'created_at',
          'updated_at',
        ])
        .expression(
          sql`SELECT r.id, r.organization_id, r.url, r.description, r.filter_types, r.metadata, r.disabled, r.secrets,
          r.created_at, r.updated_at
        FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(id text, organization_id text, url text, description text,
          filter_types jsonb, metadata jsonb, disabled boolean, secrets jsonb, created_at timestamptz, updated_at timestamptz)`,
        )
        .returning('organization_id'),
    )
    .insertInto('webhook_endpoint_counts')
    .columns(['organization_id', 'endpoints'])
    .expression(sql`SELECT organization_id, count(*)::int FROM inserted GROUP BY organization_id`)
    .onConflict((oc) =>
      oc
        .column('organization_id')
        .doUpdateSet((eb) => ({ endpoints: eb('webhook_endpoint_counts.endpoints', '+', eb.ref('excluded.endpoints')) })),
    )
    .execute()
}

/** Deletes an endpoint row and takes it off its organization's count, in one statement. */
function deleteEndpoint(db: Kysely<ReadDatabase>, endpointId: string) {
  return db
    .with('deleted', (qb) => qb.deleteFrom('webhook_endpoints').where('id', '=', endpointId).returning('organization_id'))
    .updateTable('webhook_endpoint_counts')
    .set((eb) => ({ endpoints: eb('endpoints', '-', 1) }))
    .where('organization_id', 'in', (eb) => eb.selectFrom('deleted').select('deleted.organization_id'))
    .execute()
}

/**
 * Applies updates and rotations: the rows they touch read in one statement, the events evolved
 * in memory in order, each row written once (a hot endpoint's run of updates costs two statements).
 */
async function updateEndpoints(db: Kysely<ReadDatabase>, events: Changed[], ctx: ProjectionContext): Promise<void> {
  const ids = [...new Set(events.map((e) => e.data.endpointId))]
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute()
  const secrets = await sealedEndpointSecrets.openMany(
    ctx.protection,
    rows.map((row) => ({ id: row.id, value: row.secrets, subject: row.organization_id })),
  )
  const states = new Map(rows.map((row, i) => [row.id, { ...stateOf(row), secrets: secrets[i]! }]))
  for (const event of events) {
    const state = states.get(event.data.endpointId)
    if (!state) throw new Error(`endpoint ${event.data.endpointId} has no row to apply ${event.type} to`)
    states.set(state.id, evolve(state, event))
  }
  for (const state of await sealed(ctx, [...states.values()])) {
    const { id, organization_id: _org, created_at: _created, ...changed } = endpointRow(state)
    await db.updateTable('webhook_endpoints').set(changed).where('id', '=', id).execute()
  }
}

export const webhookEndpointsProjector: Projector = {
  // Runs of creates (the common case under load) become one INSERT, runs of updates one read and
  // a write per endpoint; a different kind of event flushes the run first, so the order of effects
  // is the order of events.
  async applyMany(db, events: RecordedEvent[], ctx) {
    let created: Created[] = []
    let changed: Changed[] = []
    const flushCreated = async () => {
      if (created.length > 0) await insertCreated(db, created, ctx)
      created = []
    }
    const flushChanged = async () => {
      if (changed.length > 0) await updateEndpoints(db, changed, ctx)
      changed = []
    }
    for (const recorded of events) {
      const event = parsedEvent<WebhookEndpointEvent>(recorded)
      if (event.type === 'WebhookEndpointCreated') {
        await flushChanged()
        created.push(event)
      } else if (event.type === 'WebhookEndpointDeleted') {
        await flushCreated()
        await flushChanged()
        await deleteEndpoint(db, event.data.endpointId)
      } else {
        await flushCreated()
        changed.push(event)
      }
    }
    await flushCreated()
    await flushChanged()
  },
  name: 'webhook_endpoints',
  tables: ['webhook_endpoints', 'webhook_endpoint_counts'],
  handles: new Set(['WebhookEndpointCreated', 'WebhookEndpointUpdated', 'WebhookEndpointSecretRotated', 'WebhookEndpointDeleted']),
  async apply(db, recorded, ctx) {
    const event = parsedEvent<WebhookEndpointEvent>(recorded)
    switch (event.type) {
      case 'WebhookEndpointCreated':
        return void (await insertCreated(db, [event], ctx))
      case 'WebhookEndpointDeleted':
        return void (await deleteEndpoint(db, event.data.endpointId))
      default:
        return updateEndpoints(db, [event], ctx)
    }
  },
}
