// The fuzz's request writing: plans repeat exactly for a seed, deep nesting is written as text
// (JSON.stringify would overflow), huge strings expand, and lone surrogates reach the URL as bytes.
import t from 'tap'
import { encodeLoose, materialize, writeBody } from './fixtures/materialize.js'
import type { Operation } from './fixtures/operations.js'
import { plansFrom } from './fixtures/plans.js'

const operation: Operation = {
  key: 'POST /v1/things/{id}',
  method: 'POST',
  path: '/v1/things/{id}',
  pathParams: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } }],
  queryParams: [{ name: 'page_size', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } }],
  headerParams: [],
  body: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', maxLength: 100 },
      tags: { type: 'array', items: { type: 'string' } },
      nested: { type: 'object', properties: { n: { type: 'integer' } } },
    },
  },
  bodyRequired: true,
}

t.test('a seed gives the same plans, another seed others', async (t) => {
  const a = JSON.stringify([...plansFrom([operation], 42, 300)])
  t.equal(JSON.stringify([...plansFrom([operation], 42, 300)]), a)
  t.not(JSON.stringify([...plansFrom([operation], 43, 300)]), a)
})

t.test('deep nesting is written as text and parses to the depth asked', async (t) => {
  const text = writeBody({ name: 'x', metadata: { __fuzzDeep: 'array', depth: 20_000 } })
  t.equal(text.length, '{"name":"x","metadata":}'.length + 40_000)
  let depth = 0
  let node: unknown = (JSON.parse(text) as { metadata: unknown }).metadata
  while (Array.isArray(node) && node.length > 0) {
    node = node[0]
    depth++
  }
  t.equal(depth + 1, 20_000)
  t.match(writeBody({ o: { __fuzzDeep: 'object', depth: 3 } }), '{"o":{"a":{"a":{"a":1}}}}')
  t.equal(writeBody({ s: { __fuzzRepeat: '\u0000', count: 3 } }), '{"s":"\\u0000\\u0000\\u0000"}')
})

t.test('lone surrogates are sent as their bytes, not dropped', async (t) => {
  t.equal(encodeLoose('a\ud800b'), 'a%ED%A0%80b')
  t.equal(encodeLoose('é'), '%C3%A9')
  const request = materialize(
    operation,
    { params: { id: 'thing_1' }, body: { name: 'n' } },
    { operation: 0, mutations: [{ kind: 'pathParam', name: 'id', value: '\udfff', raw: false }] },
    'sk_key',
    'r1',
  )
  t.equal(request.url, '/v1/things/%ED%BF%BF')
  t.match(request.headers, { authorization: 'Bearer sk_key', 'x-request-id': 'r1', 'content-type': 'application/json' })
})
