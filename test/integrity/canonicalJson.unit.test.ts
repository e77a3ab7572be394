// The fast RFC 8785 writer (events/integrity/canonicalJson.ts) against the reference implementation
// (`canonicalize`, by the RFC's author): the same text for the largest and random instances of every
// stored event type, for arbitrary JSON, and for the cases a JS object cannot hold in JCS order.
import fc from 'fast-check'
import canonicalize from 'canonicalize'
import t from 'tap'
import { canonicalJson } from '../../events/integrity/canonicalJson.js'
import { EVENT_TYPES, eventValuesOf } from '../events/generators/eventValues.js'

t.test('every stored event type, largest and random instances, reads as canonicalize writes it', async (t) => {
  for (const type of EVENT_TYPES) {
    const values = eventValuesOf(type)
    const metadata = { requestId: 'req_1', organizationId: 'org_1', actor: 'key:k', schemaVersion: 2 }
    for (const data of values.largest) {
      const envelope = { data, id: 'e', metadata, stream: 's', type }
      if (canonicalJson(envelope) !== canonicalize(envelope)) t.fail(`${type}: the largest instance differs`)
    }
    fc.assert(
      fc.property(values.arbitrary, (data) => canonicalJson({ data, metadata }) === canonicalize({ data, metadata })),
      { numRuns: 10 },
    )
  }
  t.pass(`${EVENT_TYPES.length} types`)
})

t.test('arbitrary JSON values read as canonicalize writes them', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => canonicalJson(value) === canonicalize(value)),
    { numRuns: 2_000 },
  )
  t.pass()
})

t.test('the cases objects cannot order, and the ones JSON.stringify treats its own way', async (t) => {
  const cases: unknown[] = [
    { 10: 'a', 9: 'b', b: 1, a: 2 },
    { b: [{ d: 1, c: { f: 1, e: 2 } }], a: null },
    JSON.parse('{"__proto__": {"z": 1, "y": 2}, "a": 1}'),
    { '\u00e9': 1, e: 2, '\ud83d\ude00': 3, '\uffff': 4 },
    { z: undefined, y: [undefined, 1], x: 'a\u2028b\u0000"' },
    { at: new Date('2026-11-29T10:00:00.000Z'), n: [-0, 1e21, 1.5e-7, 333333333.33333329] },
    { '12345678901': 'not an index', '2': 'index' },
  ]
  cases.forEach((value, i) => t.equal(canonicalJson(value), canonicalize(value), `case ${i}`))
  t.equal(canonicalJson({ b: 1, a: { d: 1, c: 2 } }), '{"a":{"c":2,"d":1},"b":1}')
})
