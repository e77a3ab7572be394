// Control characters in stored text (issue 24, D11): for every operation of /api-json with a JSON
// body, each string of its valid fixture body, each string property its schema declares, and a
// metadata-like free object's string value, in turn, carry a C0 control character (or DEL). Each
// request is refused with a 4xx in the one error body whose `details` name that field, and nothing
// is appended. One operation's fields are sent in turn, so the sweep is bounded by the fields the
// document declares (about 400 requests), not by a sample.
import t from 'tap'
import { errorModelProblems } from './fixtures/errorModel.js'
import { openProofApp } from './fixtures/openApp.js'
import type { JsonSchema, Operation } from './fixtures/operations.js'
import { fixtureFor, missingFixtures, urlOf } from './fixtures/registry.js'
import { HOOK_URL, createWorld } from './fixtures/world.js'

/** The characters tried, in turn: the three the issue found, ESC, a C0 at the range's end, and DEL. */
const CONTROLS = ['\u0001', '\u0002', '\u0007', '\u001b', '\u001f', '\u007f'] as const
const SWEEP_LIMITS = {
  /** Levels of a body followed into objects and arrays; the deepest request shape needs about 8. */
  maxDepth: 10,
  /** A sweep that found more string fields than this is broken (a cycle, a runaway schema walk). */
  maxFieldsPerOperation: 120,
} as const

type Path = (string | number)[]
type JsonObject = Record<string, unknown>

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)
const keyOf = (path: Path): string => path.join('.')
const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type)

/** The paths of every string in a valid body (objects and arrays followed). */
function stringsIn(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (path.length > SWEEP_LIMITS.maxDepth) return out
  if (typeof value === 'string') out.push(path)
  else if (Array.isArray(value)) value.forEach((item, index) => stringsIn(item, [...path, index], out))
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) stringsIn(item, [...path, key], out)
  return out
}

/** The one schema a nullable or single-branch union stands for; undefined for a real choice. */
function soleBranch(schema: JsonSchema): JsonSchema | undefined {
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].filter((branch) => typeOf(branch) !== 'null')
  if (branches.length === 0) return schema
  return branches.length === 1 ? soleBranch(branches[0]!) : undefined
}

/**
 * The paths of every string the schema declares (properties, array items, a free object's value:
 * metadata), whether or not the valid body carries it. A union with a real choice is not followed:
 * which branch applies depends on the body, whose own strings cover the branch it takes.
 */
function declaredStrings(schema: JsonSchema, value: unknown, path: Path = [], out: Path[] = []): Path[] {
  const sole = soleBranch(schema)
  if (!sole || path.length > SWEEP_LIMITS.maxDepth) return out
  const type = typeOf(sole)
  if (type === 'string' && !sole.enum) out.push(path)
  else if (type === 'array' && sole.items) declaredStrings(sole.items, Array.isArray(value) ? value[0] : undefined, [...path, 0], out)
  else if (type === 'object' && sole.properties) {
    for (const [key, property] of Object.entries(sole.properties))
      declaredStrings(property, isObject(value) ? value[key] : undefined, [...path, key], out)
  } else if (type === 'object' && sole.additionalProperties !== false) out.push([...path, 'note'])
  return out
}

/** A copy of `body` whose string at `path` carries `control` in its middle (or is a short text with it). */
function withControl(body: unknown, path: Path, control: string): unknown {
  const copy: unknown = structuredClone(body)
  let parent: unknown = copy
  path.slice(0, -1).forEach((step, index) => {
    const holder = parent as Record<string | number, unknown>
    if (holder[step] === undefined || holder[step] === null) holder[step] = typeof path[index + 1] === 'number' ? [] : {}
    parent = holder[step]
  })
  const holder = parent as Record<string | number, unknown>
  const last = path[path.length - 1]!
  const current = holder[last]
  const text = typeof current === 'string' && current.length > 0 ? current : 'text'
  const middle = Math.ceil(text.length / 2)
  holder[last] = `${text.slice(0, middle)}${control}${text.slice(middle)}`
  return copy
}

const proof = await openProofApp(t)
const { send, events } = proof
const world = createWorld(send, proof.h.org.apiKey)
const withBody = proof.operations.filter((o): o is Operation & { body: JsonSchema } => o.body !== undefined)

t.test('every operation has a fixture', async (t) => {
  t.same(missingFixtures(proof.operations), [])
  t.ok(withBody.length >= 20, `${withBody.length} operations with a JSON body`)
})

t.test('a control character in any string field is refused, named, and stores nothing', async (t) => {
  let sent = 0
  for (const operation of withBody) {
    const valid = await fixtureFor(operation).build(world)
    const body = valid.body ?? {}
    const seen = new Set<string>()
    const paths = [...stringsIn(body), ...declaredStrings(operation.body, body)].filter((path) => {
      const known = seen.has(keyOf(path))
      seen.add(keyOf(path))
      return !known
    })
    t.ok(paths.length <= SWEEP_LIMITS.maxFieldsPerOperation, `${operation.key}: ${paths.length} string fields`)
    for (const path of paths.slice(0, SWEEP_LIMITS.maxFieldsPerOperation)) {
      const control = CONTROLS[sent % CONTROLS.length]!
      const field = `body.${keyOf(path)}`
      const what = `${operation.key} ${field} with U+${control.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`
      // The head may move meanwhile by what workflows and timers do about earlier requests: only this request's id counts.
      const requestId = `cc-${sent}`
      const reply = await send({
        method: operation.method,
        url: urlOf(operation, valid),
        payload: withControl(body, path, control) as object,
        headers: { 'x-request-id': requestId },
      })
      sent++
      const refused = reply.statusCode >= 400 && reply.statusCode < 500
      t.ok(refused, `${what}: 4xx (got ${reply.statusCode})`)
      if (!refused) continue
      t.same(errorModelProblems(reply), [], `${what}: the one error body`)
      const details = (JSON.parse(reply.body) as { details?: { field?: string }[] }).details ?? []
      t.ok(
        // Schema refusals name `body.<path>`; the domain's 422 details name the path alone.
        details.some((detail) => detail.field === field || detail.field === keyOf(path)),
        `${what}: a detail names the field (got ${reply.statusCode} ${reply.body.slice(0, 200)})`,
      )
      t.equal(await events.appendedBy([requestId]), 0, `${what}: nothing appended`)
    }
  }
  t.ok(sent >= 100, `${sent} requests sent`)
})

t.test('tab and line feed: kept in a field declared multi-line, refused in a one-line field', async (t) => {
  const verification = proof.operations.find((o) => o.key === 'POST /v1/customers/{id}/business_verification')!
  const valid = await fixtureFor(verification).build(world)
  const prose = 'Widgets and gadgets.\n\tSold wholesale.'
  const saved = await send({
    method: 'POST',
    url: urlOf(verification, valid),
    payload: { ...(valid.body as object), businessDescription: prose },
  })
  t.equal(saved.statusCode, 200, `a multi-line businessDescription is saved: ${saved.body.slice(0, 200)}`)
  const read = await send({ method: 'GET', url: `/v1/customers/${valid.params.id}/verification` })
  t.match(read.body, JSON.stringify(prose).slice(1, -1), 'and reads back as sent')

  const oneLine = await send({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: HOOK_URL, description: 'two\nlines' },
    headers: { 'x-request-id': 'cc-one-line' },
  })
  t.equal(oneLine.statusCode, 400)
  t.match(JSON.parse(oneLine.body), {
    code: 'invalid_request',
    details: [{ field: 'body.description', message: /control characters \(found U\+000A\)/ }],
  })
  const key = await send({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: HOOK_URL, metadata: { 'te\u0007am': 'ops' } },
    headers: { 'x-request-id': 'cc-metadata-key' },
  })
  t.equal(key.statusCode, 400, 'a metadata key with a control character')
  t.equal(await events.appendedBy(['cc-one-line', 'cc-metadata-key']), 0, 'nothing appended (by these requests: timers move the head)')
})
