// The store's one check of what it can keep and replay: every refusal names where, never the
// value, and no input (however deep, cyclic or large) overflows the stack or walks forever.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { UnstorableEventError } from '../../events/store/port.js'
import { STORABLE_LIMITS, assertStorableAppend, findUnstorable } from '../../events/store/storableData.js'

const event = (data: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  type: 'Tested',
  data,
  metadata,
})

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {}
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

t.test('data JSON keeps unchanged passes', async (t) => {
  const fine = {
    name: 'Zoë 😀 \t tab\nnew line',
    n: 1.5,
    zero: 0,
    negative: -3,
    big: Number.MAX_SAFE_INTEGER,
    yes: true,
    nothing: null,
    list: [1, 'two', { three: [3] }],
    leftOut: undefined,
    'key with spaces': 'ok',
    empty: {},
    bare: Object.create(null) as object,
    deep: nested(STORABLE_LIMITS.maxDepth - 2),
  }
  t.equal(findUnstorable(fine, 'data'), undefined)
  t.doesNotThrow(() => assertStorableAppend('customer-1', [event(fine, { organizationId: 'org_1', requestId: 'req_1' })]))
})

t.test('each kind of unstorable value is refused with its path', async (t) => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['NUL in a string', { firstName: 'A\u0000b' }, 'data.firstName', /U\+0000/],
    ['lone high surrogate', { description: '\ud800' }, 'data.description', /unpaired/],
    ['lone low surrogate', { x: ['ok', 'a\udc00'] }, 'data.x[1]', /unpaired/],
    ['surrogates in the wrong order', { x: '\udc00\ud800' }, 'data.x', /unpaired/],
    ['NUL in a key', { metadata: { 'k\u0000': 'v' } }, 'data.metadata["k\\u0000"]', /key that contains U\+0000/],
    ['lone surrogate in a key', { '\ud800': 1 }, 'data["\\ud800"]', /key that contains an unpaired/],
    ['NaN', { n: Number.NaN }, 'data.n', /not a finite number/],
    ['Infinity', { n: [Number.POSITIVE_INFINITY] }, 'data.n[0]', /not a finite number/],
    ['-0', { n: -0 }, 'data.n', /-0/],
    ['bigint', { n: 1n }, 'data.n', /bigint/],
    ['function', { f: () => 1 }, 'data.f', /function/],
    ['undefined in an array', { a: [undefined] }, 'data.a[0]', /undefined/],
    ['a hole in an array', { a: [1, , 3] }, 'data.a[1]', /hole/],
    ['a Date', { at: new Date(0) }, 'data.at', /toJSON/],
    ['a Map', { m: new Map() }, 'data.m', /plain object/],
    ['a symbol key', { [Symbol('s')]: 1 }, 'data', /symbol/],
  ]
  for (const [name, data, path, reason] of cases) {
    const found = findUnstorable(data, 'data')
    t.equal(found?.path, path, `${name}: path`)
    t.match(found?.reason, reason, `${name}: reason`)
    const error = (() => {
      try {
        assertStorableAppend('s-1', [event({ fine: 1 }), event(data)])
      } catch (e) {
        return e
      }
    })()
    t.ok(error instanceof UnstorableEventError, `${name}: typed error`)
    t.equal((error as UnstorableEventError).path, path.replace(/^data/, 'events[1].data'), `${name}: path within the append`)
  }
})

t.test('the message names the place, never the value', async (t) => {
  const error = (() => {
    try {
      assertStorableAppend('s-1', [event({ taxIdentificationNumber: 'SECRET-123\u0000' })])
    } catch (e) {
      return e as Error
    }
  })()
  t.match(error?.message, /events\[0\]\.data\.taxIdentificationNumber contains U\+0000/)
  t.notMatch(error?.message, /SECRET/)
})

function refusedPath(stream: string, events: Parameters<typeof assertStorableAppend>[1]): string | undefined {
  try {
    assertStorableAppend(stream, events)
    return undefined
  } catch (error) {
    return error instanceof UnstorableEventError ? error.path : 'not an UnstorableEventError'
  }
}

t.test('metadata, the stream name, the type and the id are checked too', async (t) => {
  t.equal(refusedPath('s-1', [event({}, { requestId: 'r\u0000' })]), 'events[0].metadata.requestId')
  t.equal(refusedPath('s-\u0000', [event({})]), 'stream')
  t.equal(refusedPath('s-1', [{ ...event({}), type: 'T\ud800' }]), 'events[0].type')
  t.equal(refusedPath('s-1', [{ ...event({}), type: '' }]), 'events[0].type')
  t.equal(refusedPath('s-1', [{ ...event({}), id: 'not-a-uuid' }]), 'events[0].id')
})

t.test('depth, cycles and size are bounded without recursion', async (t) => {
  const deep = findUnstorable(nested(100_000), 'data')
  t.match(deep?.reason, /nested deeper than 32 levels/, '100 000 levels: refused, no stack overflow')
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  t.match(findUnstorable(cyclic, 'data')?.reason, /nested deeper/, 'a cycle ends at the depth bound')
  const wide = { list: Array.from({ length: STORABLE_LIMITS.maxValues }, () => 1) }
  t.match(findUnstorable(wide, 'data')?.reason, /more than 100000 values/)
  // nested(n) is n + 1 objects, one inside the other.
  t.equal(findUnstorable(nested(STORABLE_LIMITS.maxDepth - 1), 'data'), undefined, 'exactly the bound passes')
  t.match(findUnstorable(nested(STORABLE_LIMITS.maxDepth), 'data')?.reason, /nested deeper/, 'one more is refused')
})
