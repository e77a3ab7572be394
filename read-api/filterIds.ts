// The ids a list's filters name (issue 24, D6): every id a request names is checked for existence and
// tenant, a filter's as a path's. An id the organization does not have, another organization's or a
// made-up one alike, is the same 404 `resource_not_found` naming the parameter, so the answer never
// tells whether it exists elsewhere. "Has": the resource's row in the organization, or, for a
// resource that may be gone while the list keeps its records (a deleted counterparty's transfers), a
// row of the list naming it. The X-On-Behalf-Of scope still only narrows what a list shows.
import type { Kysely } from 'kysely'
import { DomainError } from '../domain/errors.js'
import type { ReadDatabase } from '../projections/schema.js'

/** Whether the organization has the resource of this id (one indexed lookup). */
export type Known = (id: string) => Promise<boolean>

export type NamedFilter = {
  /** The query parameter, as the error names it. */
  parameter: string
  /** What it names, as the message says it ("Customer"). */
  what: string
  id: string | undefined
  known: Known
}

/** 404 for the first filter whose id the organization does not have; the lookups run together. */
export async function assertFilterIdsKnown(filters: readonly NamedFilter[]): Promise<void> {
  const named = filters.filter((f): f is NamedFilter & { id: string } => f.id !== undefined)
  const known = await Promise.all(named.map((f) => f.known(f.id)))
  const unknown = named.find((_, i) => !known[i])
  if (unknown)
    throw new DomainError('not_found', 'resource_not_found', `${unknown.what} ${unknown.id} not found`, [
      { field: `query.${unknown.parameter}`, message: `names no ${unknown.what.toLowerCase()} of the organization`, value: unknown.id },
    ])
}

/** Any of the lookups finds it (the resource, then the list's own rows). */
export const anyOf =
  (...lookups: Known[]): Known =>
  async (id) => {
    for (const lookup of lookups) if (await lookup(id)) return true
    return false
  }

export const customerOf =
  (db: Kysely<ReadDatabase>, organizationId: string): Known =>
  async (id) =>
    (await db
      .selectFrom('customers')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst()) !== undefined

export const counterpartyOf =
  (db: Kysely<ReadDatabase>, organizationId: string): Known =>
  async (id) =>
    (await db
      .selectFrom('counterparties')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst()) !== undefined

export const accountOf =
  (db: Kysely<ReadDatabase>, organizationId: string): Known =>
  async (id) =>
    (await db.selectFrom('accounts').select('id').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()) !==
    undefined
