// Every page list of /api-json, paged whole (issue 25, point 8): after a world grown by running
// every create and move of the registry several times, following page_next from the smallest page
// lists exactly what one large page lists, in the same order, each item once. A list added by a
// later slice is covered from its first commit (its fixture gives the path ids).
import t from 'tap'
import { jsonOf } from './fixtures/client.js'
import { openProofApp } from './fixtures/openApp.js'
import { type Operation, type Parameter, isApiOperation } from './fixtures/operations.js'
import { FIXTURES, fixtureFor, keyFor, urlOf } from './fixtures/registry.js'
import { createWorld } from './fixtures/world.js'

const PAGING = {
  /** Runs of each create and move fixture: over 9 items in the lists they feed, past where a text order parts from a number's. */
  growRuns: 12,
  /** Pages followed per list at most (a list that never ends fails instead of hanging). */
  maxPages: 400,
  /** Items every list must hold after growing, so that its paging is really tried. */
  minItems: 10,
} as const

type Page = { data: unknown[]; page_next?: string | null; has_more?: boolean; total?: number }

const proof = await openProofApp(t)
const { send } = proof
const world = createWorld(send, proof.h.org.apiKey, proof.operatorKey)

const param = (operation: Operation, name: string) => operation.queryParams.find((p) => p.name === name)
const PAGING_PARAMS = new Set(['page_size', 'limit', 'offset', 'cursor', 'starting_after', 'ending_before'])

/** How a list pages: by cursor (page_next; the spec's page_size, or limit and cursor) or by offset (limit and offset). */
type Mode = { kind: 'cursor' | 'offset'; size: Parameter }

function modesOf(operation: Operation): Mode[] {
  const modes: Mode[] = []
  const cursorSize = param(operation, 'page_size') ?? (param(operation, 'cursor') ? param(operation, 'limit') : undefined)
  if (cursorSize && (param(operation, 'starting_after') || param(operation, 'cursor'))) modes.push({ kind: 'cursor', size: cursorSize })
  const limit = param(operation, 'limit')
  if (limit && param(operation, 'offset')) modes.push({ kind: 'offset', size: limit })
  return modes
}

const pageLists = proof.operations.filter((o) => isApiOperation(o) && o.method === 'GET' && modesOf(o).length > 0)

/** `apiKey`: the list's key (the operator key for an operator route), else the world's. */
async function getPage(url: string, apiKey?: string): Promise<Page> {
  const reply = await send({ method: 'GET', url, ...(apiKey ? { apiKey } : {}) })
  if (reply.statusCode !== 200) throw new Error(`GET ${url}: ${reply.statusCode} ${reply.body.slice(0, 300)}`)
  return jsonOf<Page>(reply, url)
}

const withSize = (url: string, name: string, size: number) => `${url}${url.includes('?') ? '&' : '?'}${name}=${size}`

t.test('grow the world: every create and move of the registry, several times', async (t) => {
  const grows = proof.operations.filter((o) => isApiOperation(o) && o.method === 'POST' && FIXTURES[o.key]?.consumes !== true)
  let succeeded = 0
  const failed: string[] = []
  for (let run = 0; run < PAGING.growRuns; run++) {
    for (const operation of grows) {
      const valid = await fixtureFor(operation).build(world)
      const reply = await send({ method: operation.method, url: urlOf(operation, valid), payload: (valid.body ?? {}) as object })
      // A repeat may be refused (submitted twice, say); never a 500.
      if (reply.statusCode >= 500) failed.push(`${operation.key}: ${reply.statusCode} ${reply.body.slice(0, 200)}`)
      if (reply.statusCode < 300) succeeded++
    }
  }
  t.same(failed, [], 'no write answered 5xx')
  t.ok(succeeded > grows.length * 2, `${succeeded} writes over ${grows.length} operations`)
})

/** Every item of the list, followed from its first page of `size`, as JSON texts. */
async function followed(
  mode: Mode,
  base: string,
  size: number,
  enough: number,
  apiKey: string,
): Promise<{ items: string[]; pages: number; ended: boolean }> {
  const items: string[] = []
  let next: string | null = withSize(base, mode.size.name, size)
  let pages = 0
  for (; next !== null && pages < PAGING.maxPages && items.length < enough; pages++) {
    const page: Page = await getPage(next, apiKey)
    items.push(...page.data.map((item) => JSON.stringify(item)))
    const last = page.data[page.data.length - 1] as { id?: unknown } | undefined
    if (mode.kind === 'cursor' && page.page_next !== undefined) next = page.page_next
    else if (mode.kind === 'cursor') {
      // The spec's offset-shaped lists page by cursor without links: starting_after the last item's id.
      if (page.data.length < size) next = null
      else if (typeof last?.id === 'string') next = `${withSize(base, mode.size.name, size)}&starting_after=${last.id}`
      else throw new Error(`${base}: a cursor page without page_next nor item ids`)
    } else next = page.data.length < size ? null : `${withSize(base, mode.size.name, size)}&offset=${items.length}`
  }
  return { items, pages, ended: next === null }
}

t.test('every page list, in each of its paging modes: the smallest pages followed list what one large page does', async (t) => {
  t.ok(pageLists.length >= 8, `${pageLists.length} page lists`)
  for (const operation of pageLists) {
    const fixture = fixtureFor(operation)
    const apiKey = keyFor(fixture, world)
    const valid = await fixture.build(world)
    const filters = Object.fromEntries(Object.entries(valid.query ?? {}).filter(([name]) => !PAGING_PARAMS.has(name)))
    const base = urlOf(operation, { ...valid, query: filters })
    for (const mode of modesOf(operation)) {
      const what = `${operation.key} by ${mode.kind}`
      const largest = mode.size.schema.maximum ?? 100
      const smallest = Math.max(1, mode.size.schema.minimum ?? 1)
      const whole = await getPage(withSize(base, mode.size.name, largest), apiKey)
      const items = whole.data.map((item) => JSON.stringify(item))
      const complete = whole.has_more === false || (whole.total !== undefined && whole.total <= items.length)
      const paged = await followed(mode, base, smallest, items.length + smallest, apiKey)
      const compared = complete ? paged.items : paged.items.slice(0, items.length)
      t.same(compared, items, `${what}: ${paged.pages} pages of ${smallest} equal one page of ${largest} (${items.length} items)`)
      t.equal(new Set(paged.items).size, paged.items.length, `${what}: no item twice`)
      if (complete) t.ok(paged.ended, `${what}: the pages end`)
      t.ok(items.length >= PAGING.minItems, `${what}: ${items.length} items (at least ${PAGING.minItems})`)
    }
  }
})
