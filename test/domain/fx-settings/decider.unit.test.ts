// The FX settings decider, given/when/then: partial changes over the environment's defaults (or the
// last settings), a customer's own spread set and cleared within its bound, the sandbox provider's
// behaviour; and which pairs the settings enable.
import t from 'tap'
import { fxSettingsDecider, fxSettingsIdOf } from '../../../domain/fx-settings/decider.js'
import type { FxSettingsEvent } from '../../../domain/fx-settings/events.js'
import { FX_SETTINGS_LIMITS, defaultFxSettings, pairEnabled } from '../../../domain/fx-settings/settings.js'
import { checkPair } from '../../../domain/fx/pair.js'
import { spec } from '../deciderSpec.js'

const fx = spec(fxSettingsDecider)
const now = '2026-11-28T10:00:00.000Z'
const audit = { organizationId: 'org_a', configuredBy: 'cli:ops', now }
const recorded = { organizationId: 'org_a', configuredBy: 'cli:ops', configuredAt: now }
const sandbox = defaultFxSettings('sandbox')
const configured = (settings = sandbox): FxSettingsEvent => ({ type: 'FxSettingsConfigured', data: { ...recorded, settings } })
const priced = (customerId: string, spreadBps: number | null): FxSettingsEvent => ({
  type: 'FxCustomerPricingSet',
  data: { ...recorded, customerId, spreadBps },
})

t.test('a change applies over the defaults, then over the last settings', async (t) => {
  fx.given([])
    .when({ type: 'ConfigureFx', changes: { fiatPairsEnabled: true }, defaults: sandbox, ...audit })
    .then(t, [configured({ ...sandbox, fiatPairsEnabled: true })])
  fx.given([configured({ ...sandbox, spreadBps: 40 })])
    .when({ type: 'ConfigureFx', changes: { enabledPairs: ['USDC/EUR'] }, defaults: sandbox, ...audit })
    .then(t, [configured({ ...sandbox, spreadBps: 40, enabledPairs: ['USDC/EUR'] })], 'the earlier spread kept')
  fx.given([])
    .when({ type: 'ConfigureFx', changes: { spreadBps: undefined }, defaults: defaultFxSettings('production'), ...audit })
    .then(t, [configured(defaultFxSettings('production'))], 'an undefined field changes nothing')
})

t.test("a customer's own spread: set, replaced, cleared, bounded", async (t) => {
  const state = fx.given([priced('cus_1', 10), priced('cus_1', 12), priced('cus_2', 5), priced('cus_2', null)]).state
  t.same(state.customerSpreads, { cus_1: 12 })
  const full = Array.from({ length: FX_SETTINGS_LIMITS.maxCustomerPricings }, (_, i) => priced(`cus_${i}`, 1))
  fx.given(full)
    .when({ type: 'SetCustomerFxPricing', customerId: 'cus_new', spreadBps: 3, ...audit })
    .thenThrows(t, 'fx_customer_pricing_limit_reached')
  fx.given(full)
    .when({ type: 'SetCustomerFxPricing', customerId: 'cus_0', spreadBps: 3, ...audit })
    .then(t, [priced('cus_0', 3)], 'a priced customer may change')
  fx.given(full)
    .when({ type: 'SetCustomerFxPricing', customerId: 'cus_new', spreadBps: null, ...audit })
    .then(t, [priced('cus_new', null)])
})

t.test('the sandbox provider: partial changes over its defaults', async (t) => {
  fx.given([])
    .when({ type: 'ConfigureSandboxProvider', changes: { available: false }, ...audit })
    .then(t, [{ type: 'FxSandboxProviderConfigured', data: { ...recorded, provider: { available: false, capacityUsd: '100000' } } }])
})

t.test('which pairs the settings enable', async (t) => {
  const usdcEur = checkPair({ sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'EUR', destinationRail: 'SEPA' })
  const usdtUsdc = checkPair({ sourceCurrency: 'USDT', sourceNetwork: 'TRON', destinationCurrency: 'USDC', destinationNetwork: 'BASE' })
  t.ok(pairEnabled(sandbox, usdcEur), '*/* enables every pair (fiat is its own switch)')
  t.notOk(pairEnabled({ ...sandbox, fxEnabled: false }, usdcEur), 'FX off')
  t.ok(pairEnabled({ ...sandbox, enabledPairs: ['USDC/EUR'] }, usdcEur))
  t.notOk(pairEnabled({ ...sandbox, enabledPairs: ['USDC/EUR'] }, usdtUsdc))
  t.ok(pairEnabled({ ...sandbox, enabledPairs: ['*/USDC'] }, usdtUsdc))
  t.notOk(pairEnabled(defaultFxSettings('production'), usdtUsdc), 'production starts with FX off')
  t.equal(fxSettingsIdOf('org_01abc'), 'fxs_01abc')
  t.throws(() => fxSettingsIdOf('cus_01abc'), RangeError)
})
