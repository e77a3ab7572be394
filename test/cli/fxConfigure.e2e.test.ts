// `fx configure` as a child process against a real Postgres: the operator turns fiat pairs on,
// narrows the pairs, sets the spread, prices one customer on its own and makes the sandbox provider
// unavailable; the stream records who did it, and the API answers accordingly. Refusals: an unknown
// organization or customer, bad arguments, and the provider switches in production.
import t from 'tap'
import { fxSettingsStreamOf } from '../../commands/fx-settings/fxSettingsCommands.js'
import { TEST_AUDIT_SIGNING_KEY, TEST_DATA_ENCRYPTION_KEY, startTestApp } from '../harness/testApp.js'
import { approvedCustomer } from '../transfers/transferWorld.js'
import { runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

const h = await startTestApp(t)
const env = { DATABASE_URL: h.runtime.databaseUrl }
const { organizationId } = h.org
const fiat = 'sourceCurrency=USDC&sourceNetwork=BASE&destinationCurrency=EUR&destinationRail=SEPA'
const stable = 'sourceCurrency=USDC&sourceNetwork=BASE&destinationCurrency=USDT&destinationNetwork=TRON'

t.test('the operator sets the switches, the pairs, the spreads and the provider; the API follows', async (t) => {
  const customerId = await approvedCustomer(h)
  const run = await runCli(
    [
      'fx',
      'configure',
      '--organization',
      organizationId,
      '--fiat-pairs',
      'on',
      '--pairs',
      'USDC/*',
      '--spread-bps',
      '40',
      '--operator',
      'Ops Alice',
    ],
    env,
  )
  t.equal(run.code, 0, run.stderr)
  t.match(stdoutJson(run), { organizationId, fxEnabled: true, fiatPairsEnabled: true, enabledPairs: ['USDC/*'], spreadBps: 40 })
  const [event] = await h.runtime.store.readStream(fxSettingsStreamOf(organizationId))
  t.match(event, { type: 'FxSettingsConfigured', data: { configuredBy: 'Ops Alice' }, metadata: { actor: /^cli:/, organizationId } })

  const priced = await runCli(['fx', 'configure', '--organization', organizationId, '--customer', customerId, '--spread-bps', '5'], env)
  t.equal(priced.code, 0, priced.stderr)
  t.match(stdoutJson(priced), { customerSpreads: { [customerId]: 5 } })
  const rate = (await h.request({ method: 'GET', url: `/v1/fx/rates?${fiat}&onBehalfOf=${customerId}` })).json()
  t.match(rate, { spreadBps: 5, pricing: 'CUSTOMER', rate: '0.91954' }, 'fiat pair on, the customer’s own spread')
  t.match((await h.request({ method: 'GET', url: `/v1/fx/rates?${stable}` })).json(), { spreadBps: 40, rate: '0.996' })

  const down = await runCli(['fx', 'configure', '--organization', organizationId, '--provider', 'unavailable'], env)
  t.equal(down.code, 0, down.stderr)
  t.match(stdoutJson(down), { sandboxProvider: { available: false } })
  const refused = await h.request({ method: 'GET', url: `/v1/fx/rates?${stable.replace('USDT', 'USAT').replace('TRON', 'ETHEREUM')}` })
  t.equal(refused.json().code, 'fx_quote_temporarily_unavailable', 'a rate not cached yet')
})

t.test('refusals', async (t) => {
  const unknown = await runCli(['fx', 'configure', '--organization', 'org_01h00000000000000000000000', '--fx', 'off'], env)
  t.equal(unknown.code, 1)
  t.match(stderrError(unknown), { error: 'resource_not_found', statusCode: 404 })
  const stranger = await runCli(
    ['fx', 'configure', '--organization', organizationId, '--customer', `cus_${'0'.repeat(26)}`, '--spread-bps', '1'],
    env,
  )
  t.equal(stranger.code, 1)
  t.match(stderrError(stranger), { error: 'resource_not_found' })
  for (const [extra, flag] of [
    [['--fx', 'maybe'], 'fx'],
    [['--spread-bps', '1001'], 'spread-bps'],
    [['--pairs', 'USDC-EUR'], 'pairs'],
    [['--customer', 'cus_1', '--spread-bps', '1'], 'customer'],
    [['--customer', `cus_${'1'.repeat(26)}`], 'customer'],
    [['--clear-spread'], 'clear-spread'],
    [['--provider', 'down'], 'provider'],
    [['--capacity-usd', '-1'], 'capacity-usd'],
    [[], 'nothing to change'],
  ] as const) {
    const bad = await runCli(['fx', 'configure', '--organization', organizationId, ...extra], env)
    t.equal(bad.code, 2, `${extra.join(' ')}: usage error`)
    t.match(stderrError(bad).message, flag)
  }
  const production = await runCli(['fx', 'configure', '--organization', organizationId, '--provider', 'unavailable'], {
    ...env,
    APP_ENV: 'production',
    DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
    AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
  })
  t.equal(production.code, 2, 'the provider switches are sandbox only')
  t.match(stderrError(production).message, 'not in production')
})
