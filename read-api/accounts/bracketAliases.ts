// Many clients (qs, axios, PHP, Rails) send an array parameter as `name[]=a&name[]=b`. The account
// routes fold that spelling into `name` before validation, so both spellings (and a mix) mean the
// same list; any other unknown parameter is left as it is.
import type { FastifyRequest } from 'fastify'

function asList(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** A preValidation hook folding `name[]` into `name` for each of `names`. */
export function foldBracketAliases(names: readonly string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const query = request.query
    if (typeof query !== 'object' || query === null) return
    const entries: Record<string, unknown> = { ...query }
    let changed = false
    for (const name of names) {
      const alias = `${name}[]`
      if (!(alias in entries)) continue
      const values = [...asList(entries[name]), ...asList(entries[alias])]
      delete entries[alias]
      entries[name] = values
      changed = true
    }
    if (changed) request.query = entries
  }
}
