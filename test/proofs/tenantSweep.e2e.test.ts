// Tenant sweep (issue 9): for every operation of /api-json with a resource id in its path,
// organization B sending organization A's valid request gets 404 in the one error body, appends
// no event, and A's resource reads back unchanged; B naming A's customer in X-On-Behalf-Of gets
// 404; and no list answers B with A's data whatever A's ids its filters and cursors name. The
// operator routes (the deployment's, for an operator key) answer no tenant key at all.
import t from 'tap'
import { type ApiReply, jsonOf } from './fixtures/client.js'
import { errorModelProblems } from './fixtures/errorModel.js'
import { openProofApp } from './fixtures/openApp.js'
import { fillPath, isApiOperation } from './fixtures/operations.js'
import { readBackOperation } from './fixtures/readBack.js'
import { fixtureFor, missingFixtures, urlOf } from './fixtures/registry.js'
import { createWorld } from './fixtures/world.js'

const proof = await openProofApp(t)
const { send, events } = proof
const orgA = proof.h.org
const orgB = await proof.h.newOrganization('Organization B')
const A = createWorld(send, orgA.apiKey)
const B = createWorld(send, orgB.apiKey)

const tenantOperations = proof.operations.filter((o) => isApiOperation(o) && !fixtureFor(o).operator)
const operatorOperations = proof.operations.filter((o) => isApiOperation(o) && fixtureFor(o).operator)
const withPathIds = tenantOperations.filter((o) => o.pathParams.length > 0)
const lists = tenantOperations.filter((o) => o.method === 'GET' && o.pathParams.length === 0)

/** The ids of A found in a body of B's (or A's organization id). */
const foreignIdsIn = (reply: ApiReply): string[] => [...A.ids, orgA.organizationId].filter((id) => reply.body.includes(id))

/** A request id naming the sweep's request, so what it appended is found by it (whatever timers append meanwhile). */
const requestIdOf = (kind: string, operationKey: string) =>
  `tenant-sweep-${kind}-${operationKey}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120)

t.test('every operation has a fixture', async (t) => {
  t.same(missingFixtures(proof.operations), [], 'operations without a fixture (add them to test/proofs/fixtures/registry.ts)')
  t.ok(withPathIds.length >= 20, `${withPathIds.length} operations with a resource id in the path`)
  t.ok(lists.length >= 3, `${lists.length} list operations`)
})

t.test("B with A's ids: 404, nothing appended, A's resource unchanged", async (t) => {
  // B has resources of its own, so a 404 is about ownership, not an empty organization.
  await B.customer()
  await B.endpoint()
  const aCustomer = await A.customer()
  for (const operation of withPathIds) {
    const fixture = fixtureFor(operation)
    const valid = await fixture.build(A)
    const url = urlOf(operation, valid)
    const payload = valid.body === undefined ? {} : { payload: valid.body as object }
    const readBack = readBackOperation(operation, proof.operations, fixture.readBack)
    if (!readBack) {
      t.fail(`${operation.key}: no GET shows its resource; name one in its fixture's readBack`)
      continue
    }
    const readBackUrl = fillPath(readBack.path, valid.params)
    const before = await send({ method: 'GET', url: readBackUrl, apiKey: A.apiKey })
    t.equal(before.statusCode, 200, `${operation.key}: A reads ${readBack.path} before`)
    // Checked by request id: the head also moves by timers of earlier fixtures (a trade's, a draft's screening).
    const [idB, idOnBehalf] = ['as-b', 'as-b-for-a'].map((kind) => requestIdOf(kind, operation.key))

    const asB = await send({ method: operation.method, url, ...payload, apiKey: B.apiKey, headers: { 'x-request-id': idB! } })
    t.equal(asB.statusCode, 404, `${operation.key} as B: 404`)
    t.same(errorModelProblems(asB), [], `${operation.key} as B: the one error body`)
    t.same(
      foreignIdsIn(asB).filter((id) => !url.includes(id)),
      [],
      `${operation.key} as B: no other id of A in the answer`,
    )
    const onBehalf = await send({
      method: operation.method,
      url,
      ...payload,
      apiKey: B.apiKey,
      headers: { 'x-on-behalf-of': aCustomer, 'x-request-id': idOnBehalf! },
    })
    t.equal(onBehalf.statusCode, 404, `${operation.key} as B acting for A's customer: 404`)

    t.equal(await events.appendedBy([idB!, idOnBehalf!]), 0, `${operation.key} as B: no event appended`)
    const after = await send({ method: 'GET', url: readBackUrl, apiKey: A.apiKey })
    t.same(jsonOf(after, readBackUrl), jsonOf(before, readBackUrl), `${operation.key} as B: A's ${readBack.path} unchanged`)
  }
})

t.test("operations without path ids: B naming A's resources in the body is refused and appends nothing", async (t) => {
  let checked = 0
  for (const operation of tenantOperations.filter((o) => o.pathParams.length === 0 && o.method !== 'GET')) {
    const valid = await fixtureFor(operation).build(A)
    const body = JSON.stringify(valid.body ?? {})
    const named = [...A.ids].filter((id) => body.includes(id))
    if (named.length === 0) continue
    const requestId = requestIdOf('as-b-body', operation.key)
    const asB = await send({
      method: operation.method,
      url: urlOf(operation, valid),
      payload: valid.body as object,
      apiKey: B.apiKey,
      headers: { 'x-request-id': requestId },
    })
    t.ok(asB.statusCode === 404 || asB.statusCode === 422, `${operation.key} as B naming ${named.join(', ')}: ${asB.statusCode}`)
    t.same(errorModelProblems(asB), [], `${operation.key} as B: the one error body`)
    t.equal(await events.appendedBy([requestId]), 0, `${operation.key} as B: no event appended`)
    checked++
  }
  t.ok(checked >= 2, `${checked} operations name A's resources in their body`)
})

t.test("lists: B never sees A's data, whatever A's ids its filters and cursors name", async (t) => {
  await A.message()
  await A.session()
  await A.associatedPerson()
  await A.document()
  const aIds = [...A.ids, orgA.organizationId]
  for (const operation of lists) {
    const fixture = fixtureFor(operation)
    const valid = await fixture.build(A)
    const mine = await send({ method: 'GET', url: urlOf(operation, valid), apiKey: A.apiKey })
    t.equal(mine.statusCode, 200, `${operation.key}: A lists`)
    if (fixture.deploymentWide)
      t.same(foreignIdsIn(mine), [], `${operation.key}: the deployment's (${fixture.deploymentWide}), nothing of A`)
    else t.ok(foreignIdsIn(mine).length > 0, `${operation.key}: A's own list shows A's data (so the checks below can fail)`)

    const plain = await send({ method: 'GET', url: operation.path, apiKey: B.apiKey })
    t.same(foreignIdsIn(plain), [], `${operation.key}: B's plain list`)
    let leaks = 0
    let calls = 0
    for (const param of operation.queryParams) {
      for (const id of aIds) {
        const reply = await send({ method: 'GET', url: `${operation.path}?${new URLSearchParams({ [param.name]: id })}`, apiKey: B.apiKey })
        calls++
        // A refusal may echo the value B sent (an unknown cursor); nothing else of A, and an answer nothing of A.
        const refused = reply.statusCode >= 400
        if (reply.statusCode >= 500 || foreignIdsIn(reply).some((found) => !refused || found !== id)) {
          leaks++
          t.fail(`${operation.key}?${param.name}=${id} as B: ${reply.statusCode} ${reply.body.slice(0, 200)}`)
        }
        if (reply.statusCode >= 400)
          t.same(errorModelProblems(reply), [], `${operation.key}?${param.name}=<A's id> as B: the one error body`)
      }
    }
    const aCustomer = await A.customer()
    const acting = await send({ method: 'GET', url: operation.path, apiKey: B.apiKey, headers: { 'x-on-behalf-of': aCustomer } })
    t.ok(
      acting.statusCode === 404 || operation.headerParams.every((p) => p.name !== 'x-on-behalf-of'),
      `${operation.key} as B acting for A's customer: ${acting.statusCode}`,
    )
    // The refusal may name the customer id B sent; nothing else of A.
    t.same(
      foreignIdsIn(acting).filter((id) => id !== aCustomer),
      [],
      `${operation.key} as B acting for A's customer: nothing of A`,
    )
    t.equal(leaks, 0, `${operation.key}: ${calls} filtered calls as B, none showed A's data`)
  }
})

t.test('operator routes: every tenant key refused, with nothing of A; the deployment-wide lists hold nothing of A', async (t) => {
  t.ok(operatorOperations.length >= 3, `${operatorOperations.length} operator operations`)
  const world = createWorld(send, orgA.apiKey, proof.operatorKey)
  const aCustomer = await A.customer()
  for (const operation of operatorOperations) {
    const fixture = fixtureFor(operation)
    const valid = await fixture.build(world)
    const url = urlOf(operation, valid)
    for (const [who, request] of [
      ['A', { apiKey: orgA.apiKey }],
      ['B', { apiKey: orgB.apiKey }],
      ["B acting for A's customer", { apiKey: orgB.apiKey, headers: { 'x-on-behalf-of': aCustomer } }],
    ] as const) {
      const reply = await send({ method: operation.method, url, ...request })
      t.ok(reply.statusCode === 403 || reply.statusCode === 404, `${operation.key} as ${who}: refused (${reply.statusCode})`)
      if (reply.statusCode === 403) t.match(JSON.parse(reply.body), { code: 'operator_key_required' }, `${operation.key} as ${who}`)
      t.same(errorModelProblems(reply), [], `${operation.key} as ${who}: the one error body`)
      t.same(
        foreignIdsIn(reply).filter((id) => !url.includes(id) && id !== aCustomer),
        [],
        `${operation.key} as ${who}: nothing of A`,
      )
    }
    const asOperator = await send({ method: operation.method, url, apiKey: proof.operatorKey })
    t.equal(asOperator.statusCode, 200, `${operation.key}: the operator key reads it (${fixture.operator})`)
    if (fixture.deploymentWide) t.same(foreignIdsIn(asOperator), [], `${operation.key}: the deployment's (${fixture.deploymentWide})`)
  }
})
