// `agents enable|disable` as a child process against a real Postgres: the operator turns agents on
// for one organization (creating an agent then works through the API), the stream records who did
// it, turning them off refuses creation again; an unknown organization and bad arguments are refused.
import t from 'tap'
import { streams } from '../../events/streams.js'
import { startTestApp } from '../harness/testApp.js'
import { agentBody, agentParties } from '../agents/agentWorld.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const { organizationId } = h.org

t.test('the operator enables agents, then disables them; the API follows, the stream names the operator', async (t) => {
  const p = await agentParties(h)
  const create = () => h.request({ method: 'POST', url: '/v1/agents', payload: agentBody(p) })
  t.equal((await create()).statusCode, 403, 'off for a new organization')
  const on = await runCli(['agents', 'enable', '--organization', organizationId, '--operator', 'Ops Alice'], env)
  t.equal(on.code, 0, on.stderr)
  t.same(stdoutJson(on), { organizationId, agentsEnabled: true })
  t.equal((await create()).statusCode, 201, 'an agent can be created')
  const again = await runCli(['agents', 'enable', '--organization', organizationId], env)
  t.equal(again.code, 0, 'enabling twice is fine')
  const off = await runCli(['agents', 'disable', '--organization', organizationId], env)
  t.equal(off.code, 0, off.stderr)
  t.equal((await create()).statusCode, 403, 'off again')
  const switches = (await h.runtime.store.readStream(streams.organization(organizationId))).filter((e) => e.type === 'AgentsFeatureSet')
  t.match(switches, [
    { data: { enabled: true, setBy: 'Ops Alice' }, metadata: { actor: /^cli:/ } },
    { data: { enabled: false, setBy: /^cli:/ } },
  ])
})

t.test('refusals: an unknown organization, a missing or malformed one, an unknown flag', async (t) => {
  const unknown = await runCli(['agents', 'enable', '--organization', `org_${'0'.repeat(26)}`], env)
  t.equal(unknown.code, 1)
  t.match(stderrError(unknown), { error: 'resource_not_found', statusCode: 404 })
  for (const args of [[], ['--organization', 'cus_1'], ['--organization', organizationId, '--operator', ''], ['--org', organizationId]]) {
    const run = await runCli(['agents', 'enable', ...args], env)
    t.equal(run.code, 2, `usage error for ${JSON.stringify(args)}`)
  }
})
