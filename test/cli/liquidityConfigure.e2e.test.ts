// `liquidity configure` as a child process against a real Postgres: the operator sets an
// organization's credit line, the facility's stream records who did it (audit), the API shows the
// terms; an unknown organization, invalid terms and bad arguments are refused with the CLI's error body.
import t from 'tap'
import { facilityStreamOf } from '../../commands/liquidity-facility/facilityCommands.js'
import { startTestApp } from '../harness/testApp.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const { organizationId } = h.org
const args = (over: Record<string, string> = {}) =>
  Object.entries({
    '--organization': organizationId,
    '--credit-limit': '5000000000',
    '--maximum-draw': '1000000000',
    '--fee-bps-per-hour': '1.25',
    '--fee-cap-hours': '48',
    ...over,
  }).flat()

t.test('the operator configures a credit line; the stream records who; the API shows it', async (t) => {
  const run = await runCli(['liquidity', 'configure', ...args(), '--operator', 'Ops Alice'], env)
  t.equal(run.code, 0, run.stderr)
  t.match(stdoutJson(run), {
    organizationId,
    currency: 'USDC',
    network: 'SOLANA',
    creditLimit: '5000000000',
    maximumDrawAmount: '1000000000',
    fundingFeeBpsPerHour: 1.25,
    feeCapHours: 48,
    borrowedAmount: '0',
    configuredBy: 'Ops Alice',
  })
  const [event] = await h.runtime.store.readStream(facilityStreamOf(organizationId))
  t.match(event, {
    type: 'LiquidityFacilityConfigured',
    data: { configuredBy: 'Ops Alice', fundingFeeBpsPerHour: '1.25' },
    metadata: { actor: /^cli:/, organizationId },
  })
  t.ok(await h.runtime.runner.waitFor(event!.position, 10_000), 'projected')
  t.match((await h.request({ method: 'GET', url: '/v1/liquidity/facility' })).json().creditLine, {
    creditLimit: '5000000000',
    maximumDrawAmount: '1000000000',
    fundingFeeBpsPerHour: 1.25,
    feeCapHours: 48,
  })
})

t.test('refusals: an unknown organization, invalid terms, bad arguments', async (t) => {
  const unknown = await runCli(['liquidity', 'configure', ...args({ '--organization': 'org_01h00000000000000000000000' })], env)
  t.equal(unknown.code, 1)
  t.match(stderrError(unknown), { error: 'resource_not_found', statusCode: 404 })
  const invalid = await runCli(['liquidity', 'configure', ...args({ '--maximum-draw': '5000000001' })], env)
  t.equal(invalid.code, 1)
  t.match(stderrError(invalid), { error: 'invalid_credit_line', statusCode: 422, details: [{ field: 'maximumDrawAmount' }] })
  for (const [flag, value] of [
    ['--fee-bps-per-hour', '1.00001'],
    ['--fee-bps-per-hour', '1e2'],
    ['--fee-cap-hours', '0'],
    ['--credit-limit', '-1'],
    ['--currency', 'EUR'],
    ['--organization', 'cus_1'],
  ] as const) {
    const bad = await runCli(['liquidity', 'configure', ...args({ [flag]: value })], env)
    t.equal(bad.code, 2, `${flag} ${value}: usage error`)
    t.match(stderrError(bad).message, flag.slice(2))
  }
})
