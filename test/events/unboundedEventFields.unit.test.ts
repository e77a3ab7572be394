// Issue 24, point 4 ("put a limit on everything"): the event schema fields nothing bounds (a string
// without a maximum length or a bounded format, an array without a maximum, a record, a number
// without a maximum), found by the generator's walk of every registered schema. They are listed in
// unboundedEventFields.json: each one is a gap, bounded today only by the request that wrote it. A
// new unbounded field fails here: bound it in its schema (the request boundary first, when stored
// events may not all fit) or add it to the list. A listed field that gets a bound is reported, to be
// taken off the list.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { EVENT_TYPES, eventValuesOf } from './generators/eventValues.js'

const LIST = new URL('./unboundedEventFields.json', import.meta.url)
const listed: Record<string, string[]> = JSON.parse(readFileSync(LIST, 'utf8'))

const found = new Map(
  EVENT_TYPES.map((type) => [
    type,
    eventValuesOf(type)
      .findings.filter((f) => f.kind === 'unbounded')
      .map((f) => f.path),
  ]),
)

t.test('no event field is unbounded unless it is listed as a known gap', async (t) => {
  for (const [type, paths] of found) {
    const known = new Set(listed[type] ?? [])
    const added = paths.filter((path) => !known.has(path))
    t.same(added, [], `${type}: ${added.length === 0 ? 'no new unbounded field' : `unbounded: ${added.join(', ')}`}`)
  }
})

t.test('listed fields that are bounded now', async (t) => {
  const bounded = Object.entries(listed).flatMap(([type, paths]) => {
    const now = new Set(found.get(type) ?? [])
    return paths.filter((path) => !now.has(path)).map((path) => `${type}.${path}`)
  })
  // Not a failure: a type or field another change removes or bounds is simply off the list next time.
  if (bounded.length > 0) t.comment(`bounded (or gone) since listed, take them off unboundedEventFields.json: ${bounded.join(', ')}`)
  const total = Object.values(listed).reduce((sum, paths) => sum + paths.length, 0)
  t.comment(`${total} unbounded fields in ${Object.keys(listed).length} event types`)
  t.pass('reported')
})
