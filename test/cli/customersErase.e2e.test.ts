// `customers erase` as a child process against a real Postgres: the operator defaults to the CLI's
// user, an unknown customer is refused with the API's not-found error (exit 1) and bad arguments
// with a usage error (exit 2) before any database is opened. The erasure itself is proven in
// test/customers/erasure.e2e.test.ts.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }

t.test('without --operator the erasure names the CLI user', async (t) => {
  const c = await createIndividual(h)
  const run = await runCli(['customers', 'erase', c.id, '--reason', 'test data'], env)
  t.equal(run.code, 0, run.stderr)
  t.match(stdoutJson(run), { customerId: c.id, erasedAt: String, alreadyErased: false })
  const audit = (await h.runtime.store.readStream(`customer-${c.id}`)).find((e) => e.type === 'CustomerDataErased')
  t.match(audit?.data, { erasedBy: /^cli:/, reason: 'test data', trigger: 'OPERATOR' })
  t.equal(audit?.data.erasedBy, audit?.metadata.actor, 'the operator is the actor')
})

t.test('an unknown customer is refused, nothing appended', async (t) => {
  const id = 'cus_00000000000000000000000000'
  const run = await runCli(['customers', 'erase', id, '--reason', 'test'], env)
  t.equal(run.code, 1)
  t.match(stderrError(run), { error: 'resource_not_found', kind: 'not_found', statusCode: 404, message: `Customer ${id} not found` })
  t.equal(run.stdout, '', 'nothing on stdout')
  t.same(await h.runtime.store.readStream(`customer-${id}`), [], 'no stream was started')
  t.equal((await h.runtime.protection.keys.keyForReading(id)).state, 'none', 'no key was shredded for it')
})

t.test('bad arguments are usage errors', async (t) => {
  const cases: [string, string[], RegExp][] = [
    ['no id', ['--reason', 'x'], /exactly one customer id/],
    ['two ids', ['cus_a', 'cus_b', '--reason', 'x'], /exactly one customer id/],
    ['no reason', ['cus_a'], /--reason is required/],
    ['blank reason', ['cus_a', '--reason', '  '], /--reason is required/],
    ['reason too long', ['cus_a', '--reason', 'x'.repeat(501)], /--reason is required, 1 to 500/],
    ['blank operator', ['cus_a', '--reason', 'x', '--operator', ''], /--operator must be/],
    ['unknown option', ['cus_a', '--reason', 'x', '--force'], /--force/],
  ]
  for (const [label, args, message] of cases) {
    const run = await runCli(['customers', 'erase', ...args], env)
    t.equal(run.code, 2, `${label}: exit 2`)
    t.match(stderrError(run), { error: 'usage_error', message }, `${label}: JSON error`)
    t.match(run.stderr, /\nusage: npm run -s cli -- customers erase <customerId> --reason <text>/, `${label}: usage text`)
  }
})
