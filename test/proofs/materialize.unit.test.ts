// A plan's values are inserted as copies: a later mutation of the same plan that writes under a
// field an earlier one set never writes into the plan itself, so applying a plan again (a replay)
// gives the same request, never a cyclic body (found by the soak, seed 861297735).
import t from 'tap'
import { materialize } from './fixtures/materialize.js'
import type { Operation } from './fixtures/operations.js'
import type { Plan } from './fixtures/plans.js'

const operation: Operation = {
  key: 'POST /v1/things',
  method: 'POST',
  path: '/v1/things',
  pathParams: [],
  queryParams: [],
  headerParams: [],
  body: { type: 'object' },
  bodyRequired: true,
}

t.test('a plan applied twice gives the same body, and leaves the plan unchanged', async (t) => {
  // One value object in two mutations (fast-check may hand the same one out), the second writing
  // under the first: without copies, a.organizationId[0] would be a itself.
  const shared: Record<string, unknown> = {}
  const list: unknown[] = [0]
  const plan: Plan = {
    operation: 0,
    mutations: [
      { kind: 'setField', path: ['a'], value: shared },
      { kind: 'extraField', path: ['a'], key: 'organizationId', value: list },
      { kind: 'setField', path: ['a', 'organizationId', 0], value: shared },
    ],
  }
  const before = JSON.stringify(plan)
  const first = materialize(operation, { params: {}, body: { a: 1 } }, plan, 'sk_test', 'req_1')
  const second = materialize(operation, { params: {}, body: { a: 1 } }, plan, 'sk_test', 'req_2')
  t.equal(JSON.stringify(plan), before, 'the plan is not written into')
  t.equal(first.payload, second.payload, 'the replay sends the same body')
  t.doesNotThrow(() => JSON.parse(String(first.payload)), 'a body that is JSON (no cycle)')
})
