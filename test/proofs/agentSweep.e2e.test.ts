// Agent sweep (issue 27, point 3): every operation of /api-json, sent as its fixture builds it but
// with an agent key whose agent acts for another customer, is refused in the one error body (403;
// or 404 where an agent may call the operation on its own resources, so another's is not there; an
// empty page for its own transfers' list) and appends nothing; the same key reads its own agent. An
// operation added later is covered from its first commit, and an agent key reaches it only once
// server/auth/agentScope.ts lists it.
import t from 'tap'
import { AGENT_OPERATIONS } from '../../server/auth/agentScope.js'
import { errorModelProblems } from './fixtures/errorModel.js'
import { openProofApp } from './fixtures/openApp.js'
import { isApiOperation } from './fixtures/operations.js'
import { fixtureFor, urlOf } from './fixtures/registry.js'
import { createWorld } from './fixtures/world.js'

const proof = await openProofApp(t)
const { send, events } = proof
const world = createWorld(send, proof.h.org.apiKey)
const operations = proof.operations.filter(isApiOperation)

t.test('an agent key of another customer: every operation refused, nothing appended', async (t) => {
  // The sweep's agent pays for a customer of its own: every fixture's resource is outside its scope.
  const { key } = await createWorld(send, proof.h.org.apiKey).freshAgentKey()
  t.ok(operations.length >= 60, `${operations.length} operations`)
  for (const operation of operations) {
    const valid = await fixtureFor(operation).build(world)
    const url = urlOf(operation, valid)
    const requestId = `agent-sweep-${operation.key}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120)
    const reply = await send({
      method: operation.method,
      url,
      ...(valid.body === undefined ? {} : { payload: valid.body as object }),
      apiKey: key,
      headers: { 'x-request-id': requestId },
    })
    if (reply.statusCode === 200) {
      // Only a list scoped to the agent's own transfers may answer: with none of another customer's.
      t.equal(`${operation.method} ${operation.path}`, 'GET /v1/transfers', `${operation.key}: only the agent's own list answers 200`)
      t.same((JSON.parse(reply.body) as { data: unknown[] }).data, [], `${operation.key}: nothing of another customer`)
    } else {
      const allowed = AGENT_OPERATIONS[`${operation.method} ${operation.path.replace(/\{(\w+)\}/g, ':$1')}`] !== undefined
      const refused = allowed ? [403, 404] : [403]
      t.ok(
        refused.includes(reply.statusCode),
        `${operation.key}: ${refused.join(' or ')} (${reply.statusCode} ${reply.body.slice(0, 160)})`,
      )
      t.same(errorModelProblems(reply), [], `${operation.key}: the one error body`)
    }
    t.equal(await events.appendedBy([requestId]), 0, `${operation.key}: nothing appended`)
  }
})

t.test("an agent key reads its own agent, and a platform key's answer is unchanged", async (t) => {
  const { agentId, key } = await world.freshAgentKey()
  const asAgent = await send({ method: 'GET', url: `/v1/agents/${agentId}`, apiKey: key })
  t.equal(asAgent.statusCode, 200)
  const asPlatform = await send({ method: 'GET', url: `/v1/agents/${agentId}`, apiKey: world.apiKey })
  t.same(JSON.parse(asAgent.body), JSON.parse(asPlatform.body))
})
