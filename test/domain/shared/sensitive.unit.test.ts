// Sensitive fields: the mark survives describe, the walk finds every leaf through wrappers, arrays,
// records and discriminated unions, refuses what it cannot follow, and the erasable read form
// accepts the ERASED marker only where a sensitive leaf sits.
import t from 'tap'
import { z } from 'zod'
import {
  ERASED,
  UnwalkableSensitiveSchemaError,
  erasable,
  hasSensitive,
  isMarkedSensitive,
  last4,
  mapSensitive,
  sensitive,
  sensitiveLeaves,
} from '../../../domain/shared/sensitive/index.js'

const dob = sensitive(z.string().regex(/^\d{4}-\d{2}-\d{2}$/))
const person = z.object({
  name: z.string(),
  dateOfBirth: dob.optional().describe('Date of birth'),
  ids: z.array(z.object({ kind: z.string(), number: sensitive(z.string().min(3)).describe('the number') })).max(5),
  address: z.object({ line1: sensitive(z.string()), city: z.string() }).nullable(),
  kind: z.discriminatedUnion('type', [
    z.object({ type: z.literal('A'), secret: sensitive(z.string()) }),
    z.object({ type: z.literal('B'), plain: z.string() }),
  ]),
  tags: z.record(z.string(), sensitive(z.string())).default({}),
})

const value = {
  name: 'Ada',
  dateOfBirth: '1990-01-02',
  ids: [
    { kind: 'passport', number: 'P123' },
    { kind: 'ssn', number: 'S456' },
  ],
  address: { line1: '1 Main St', city: 'Springfield' },
  kind: { type: 'A' as const, secret: 's3cret' },
  tags: { a: 'tag-a' },
}

t.test('the mark: on the clone only, kept by describe, lost by a new definition', async (t) => {
  const plain = z.string()
  const marked = sensitive(plain)
  t.notOk(isMarkedSensitive(plain), 'the schema passed in stays unmarked')
  t.ok(isMarkedSensitive(marked))
  t.ok(isMarkedSensitive(marked.describe('x')), 'describe clones the definition')
  t.notOk(isMarkedSensitive(marked.max(3)), 'a new check is a new definition')
  t.ok(hasSensitive(marked.optional()), 'found through a wrapper')
  t.notOk(hasSensitive(z.object({ a: z.string() })))
})

t.test('the walk finds every sensitive leaf with its field name, and only those', async (t) => {
  t.same(sensitiveLeaves(person, value), [
    { field: 'dateOfBirth', value: '1990-01-02' },
    { field: 'number', value: 'P123' },
    { field: 'number', value: 'S456' },
    { field: 'line1', value: '1 Main St' },
    { field: 'secret', value: 's3cret' },
    { field: 'tags', value: 'tag-a' },
  ])
  const sealed = mapSensitive(person, value, (v, field) => `<${field}:${v.length}>`) as typeof value
  t.equal(sealed.name, 'Ada', 'the rest is untouched')
  t.equal(sealed.ids[1]!.kind, 'ssn')
  t.equal(sealed.ids[1]!.number, '<number:4>')
  t.equal(sealed.kind.secret, '<secret:6>')
  t.equal(value.kind.secret, 's3cret', 'the input is not changed')
  const other = { ...value, kind: { type: 'B' as const, plain: 'visible' }, address: null, dateOfBirth: undefined }
  t.same(
    sensitiveLeaves(person, other).map((l) => l.field),
    ['number', 'number', 'tags'],
    'null, undefined and the other union option hold nothing',
  )
})

t.test('shapes the walk cannot follow are refused when first walked', async (t) => {
  t.throws(() => hasSensitive(z.object({ a: z.union([sensitive(z.string()), z.number()]) })), UnwalkableSensitiveSchemaError)
  t.throws(() => hasSensitive(z.intersection(z.object({ a: sensitive(z.string()) }), z.object({}))), UnwalkableSensitiveSchemaError)
})

t.test('the erasable read form accepts ERASED at sensitive leaves only', async (t) => {
  const read = erasable(person)
  const erased = mapSensitive(person, value, () => ERASED)
  t.notOk(person.safeParse(erased).success, 'the strict schema refuses the marker')
  t.ok(read.safeParse(erased).success, 'the read form accepts it')
  t.ok(read.safeParse(value).success, 'and still accepts the plain value')
  t.notOk(read.safeParse({ ...value, name: 1 }).success, 'other fields keep their rules')
  t.notOk(read.safeParse({ ...value, dateOfBirth: 'not a date' }).success, 'a sensitive leaf keeps its own rule too')
  t.equal(erasable(person), read, 'built once')
  const noSecrets = z.object({ a: z.string() })
  t.equal(erasable(noSecrets), noSecrets, 'a schema without sensitive fields is its own read form')
})

t.test('last4 masks all but the last four characters', async (t) => {
  t.equal(last4('123456789'), '6789')
  t.equal(last4('123'), '•••')
  t.equal(last4(ERASED), ERASED)
})
