// The body guard's scan over JSON text: structure inside strings is text, escapes are decoded
// before keys are compared, and each problem is named by its field.
import t from 'tap'
import type { FieldPattern } from '../../domain/shared/text/index.js'
import { findJsonBodyProblem } from '../../server/input/jsonBodyGuard.js'

/** A string is taken as JSON text; anything else is serialized first. */
const problem = (value: unknown, maxDepth?: number, multiLine?: FieldPattern[]) =>
  findJsonBodyProblem(typeof value === 'string' ? value : JSON.stringify(value), 'body', maxDepth, multiLine)

t.test('clean bodies pass, whatever their strings hold', async (t) => {
  for (const body of [
    {},
    [],
    '"text"',
    42,
    null,
    true,
    { a: '{[{[', b: ']}]}', 'c"d': 'e\\"f', g: [1, { h: ['i', { j: null }] }] },
    { emoji: '\ud83d\ude00', unicode: 'Zoë 李', nbsp: 'a\u00a0b' },
    { k: { k: { k: 1 } }, l: [{ k: 1 }, { k: 2 }] },
  ])
    t.equal(problem(body), undefined, JSON.stringify(body))
  t.equal(problem('{ "a" : [ 1 , 2 ] , "b" : { "c" : "d" } }'), undefined, 'whitespace anywhere')
})

t.test('a problem is named by its path, array indexes included', async (t) => {
  t.same(problem({ a: [0, { b: ['x', 'y\u0000'] }] }), { field: 'body.a.1.b.1', message: 'must not contain U+0000 (NUL)' })
  t.same(problem('{"a":"\\ud800"}'), { field: 'body.a', message: 'must not contain an unpaired UTF-16 surrogate' })
  t.same(problem('{"a":"\\udc00\\ud800"}')?.field, 'body.a', 'reversed pair is two unpaired surrogates')
  t.same(problem('["ok","\\u0000"]'), { field: 'body.1', message: 'must not contain U+0000 (NUL)' })
  t.same(problem('"\\u0000"'), { field: 'body', message: 'must not contain U+0000 (NUL)' })
  t.same(problem('{"a":{"b\\u0000":1}}'), { field: 'body.a.b\u0000', message: 'key must not contain U+0000 (NUL)' })
})

t.test('keys: reserved names and duplicates, compared after unescaping', async (t) => {
  t.match(problem('{"a":1,"__proto__":{}}'), { field: 'body.__proto__', message: /not allowed/ })
  t.match(problem('{"a":[{"constructor":1}]}'), { field: 'body.a.0.constructor' })
  t.match(problem('{"prototype":1}'), { field: 'body.prototype' })
  t.match(problem('{"a":1,"\\u0061":2}'), { field: 'body.a', message: /duplicate key/ })
  t.match(problem('{"a":{"x":1},"b":{"x":1,"y":2,"x":3}}'), { field: 'body.b.x', message: /duplicate key/ })
  t.equal(problem('{"a":"__proto__","b":["constructor"]}'), undefined, 'as values they are only text')
  t.equal(problem('{"a":{"b":1},"c":{"b":1}}'), undefined)
})

// Issue 24, D11: one line unless the field is declared multi-line, and then tab and line feed only.
t.test('control characters: refused in every string, tab and line feed only where a field may span lines', async (t) => {
  t.same(problem({ a: 'x\u0001y' }), { field: 'body.a', message: 'must not contain control characters (found U+0001)' })
  t.same(problem({ a: ['ok', { b: 'bell\u0007' }] }), {
    field: 'body.a.1.b',
    message: 'must not contain control characters (found U+0007)',
  })
  t.match(problem({ a: 'x\u007fy' }), { field: 'body.a', message: /U\+007F/ }, 'DEL, sent raw in JSON')
  t.match(problem({ a: 'x\u0085y' }), { field: 'body.a', message: /U\+0085/ }, 'C1, sent raw in JSON')
  t.match(problem({ a: 'tab\there' }), { field: 'body.a', message: /U\+0009/ }, 'a tab in a one-line field')
  t.match(problem({ a: 'two\nlines' }), { field: 'body.a', message: /U\+000A/ }, 'a line feed in a one-line field')
  t.match(problem({ 'k\u0002': 1 }), { field: 'body.k\u0002', message: /^key must not contain control characters/ })
  const notes: FieldPattern[] = [['notes'], ['items', '*', 'remarks']]
  t.equal(problem({ notes: 'line 1\n\tline 2' }, undefined, notes), undefined, 'tab and line feed in a multi-line field')
  t.equal(problem({ items: [{ remarks: 'a' }, { remarks: 'b\nc' }] }, undefined, notes), undefined, 'a pattern with *')
  t.same(problem({ notes: 'a\r\nb' }, undefined, notes), {
    field: 'body.notes',
    message: 'must not contain control characters other than tab and line feed (found U+000D)',
  })
  t.match(problem({ notes: 'ok', other: 'a\nb' }, undefined, notes), { field: 'body.other' }, 'only the declared fields')
  t.match(problem({ items: { remarks: 'a\nb' } }, undefined, notes), { field: 'body.items.remarks' }, 'the path must match whole')
})

t.test('depth is bounded without recursion', async (t) => {
  t.equal(problem('[[[]]]', 3), undefined)
  t.same(problem('[[[[]]]]', 3), { field: 'body.0.0.0', message: 'nested deeper than 3 levels' })
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000)
  t.match(problem(deep), { message: 'nested deeper than 32 levels' })
  const wide = `[${Array.from({ length: 100_000 }, () => '{"a":[1]}').join(',')}]`
  t.equal(problem(wide), undefined, 'wide is not deep')
})
