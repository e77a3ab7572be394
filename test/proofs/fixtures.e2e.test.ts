// The fixture registry covers every operation of GET /api-json, and each fixture's request is
// valid (answers 2xx). The fuzz, the tenant sweep and the secrets workload build on it, so a new
// operation without a fixture fails here first.
import t from 'tap'
import { FIXTURES, fixtureFor, keyFor, missingFixtures, urlOf } from './fixtures/registry.js'
import { openProofApp } from './fixtures/openApp.js'
import { createWorld } from './fixtures/world.js'

const proof = await openProofApp(t)

t.test('every operation of /api-json has a fixture, and every fixture an operation', async (t) => {
  t.ok(proof.operations.length >= 30, `${proof.operations.length} operations read from /api-json`)
  t.same(missingFixtures(proof.operations), [], 'operations without a fixture (add them to test/proofs/fixtures/registry.ts)')
  const documented = new Set(proof.operations.map((o) => o.key))
  t.same(
    Object.keys(FIXTURES).filter((key) => !documented.has(key)),
    [],
    'fixtures of operations the document no longer has',
  )
})

t.test('each fixture builds a request its operation accepts', async (t) => {
  const world = createWorld(proof.send, proof.h.org.apiKey, proof.operatorKey)
  for (const operation of proof.operations) {
    const fixture = fixtureFor(operation)
    const valid = await fixture.build(world)
    const reply = await proof.send({
      method: operation.method,
      url: urlOf(operation, valid),
      ...(valid.body !== undefined ? { payload: valid.body as object } : {}),
      ...(valid.headers ? { headers: valid.headers } : {}),
      apiKey: keyFor(fixture, world),
    })
    t.ok(
      reply.statusCode >= 200 && reply.statusCode < 300,
      `${operation.key}: ${reply.statusCode}${reply.statusCode >= 300 ? ` ${reply.body.slice(0, 300)}` : ''}`,
    )
  }
})
