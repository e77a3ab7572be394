// `fx configure --organization <org> [--fx on|off] [--fiat-pairs on|off] [--indicative-rates on|off]
// [--pairs <SRC/DST,...>] [--spread-bps <n>] [--customer <cus> (--spread-bps <n> | --clear-spread)]
// [--provider available|unavailable] [--capacity-usd <n>] [--operator <name>]`: sets an organization's FX
// switches and pricing (audited: the operator is the events' actor and configuredBy). The provider
// options tell the sandbox liquidity provider how to behave and are refused in production.
import { parseArgs } from 'node:util'
import { configureFx } from '../../commands/fx-settings/configureFx.js'
import { SPREAD_LIMITS } from '../../domain/fx/indicativeRate.js'
import {
  DEFAULT_SANDBOX_PROVIDER,
  FX_SETTINGS_LIMITS,
  type FxSettings,
  type SandboxProvider,
  defaultFxSettings,
  pairPatternSchema,
} from '../../domain/fx-settings/settings.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { cliActor } from '../cliRuntime.js'

const MAX_ORGANIZATION_ID_LENGTH = 100
const CUSTOMER_ID = /^cus_[0-9a-z]{26}$/

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined
  if (value === 'on') return true
  if (value === 'off') return false
  throw usageError(fxConfigure, `--${flag} must be on or off`)
}

function spread(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = /^\d{1,4}$/.test(value) ? Number(value) : NaN
  if (!(n >= SPREAD_LIMITS.minBps && n <= SPREAD_LIMITS.maxBps))
    throw usageError(fxConfigure, `--spread-bps must be a whole number from ${SPREAD_LIMITS.minBps} to ${SPREAD_LIMITS.maxBps}`)
  return n
}

function pairs(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const list = value === '' ? [] : value.split(',').map((p) => p.trim())
  if (list.length > FX_SETTINGS_LIMITS.maxPairPatterns)
    throw usageError(fxConfigure, `--pairs takes at most ${FX_SETTINGS_LIMITS.maxPairPatterns} patterns`)
  const bad = list.find((p) => !pairPatternSchema.safeParse(p).success)
  if (bad !== undefined)
    throw usageError(fxConfigure, `--pairs: ${JSON.stringify(bad.slice(0, 20))} is not SOURCE/DESTINATION (USDC/EUR, USDT/*, */*)`)
  return list
}

function defined<T extends object>(value: { [K in keyof T]: T[K] | undefined }): Partial<T> | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined)
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as Partial<T>)
}

export const fxConfigure: CliCommand = {
  words: ['fx', 'configure'],
  usage:
    'fx configure --organization <orgId> [--fx on|off] [--fiat-pairs on|off] [--indicative-rates on|off] [--pairs <SRC/DST,...>] ' +
    '[--spread-bps <n>] [--customer <cusId> (--spread-bps <n> | --clear-spread)] [--provider available|unavailable] ' +
    '[--capacity-usd <n>] [--operator <name>]',
  summary: "set an organization's FX switches, pairs and spreads (and the sandbox provider's behaviour); audited",
  parse(argv) {
    const { values } = parseOrUsage(fxConfigure, () =>
      parseArgs({
        args: argv,
        options: {
          organization: { type: 'string' },
          fx: { type: 'string' },
          'fiat-pairs': { type: 'string' },
          'indicative-rates': { type: 'string' },
          pairs: { type: 'string' },
          'spread-bps': { type: 'string' },
          customer: { type: 'string' },
          'clear-spread': { type: 'boolean' },
          provider: { type: 'string' },
          'capacity-usd': { type: 'string' },
          operator: { type: 'string' },
        },
        strict: true,
        allowPositionals: false,
      }),
    )
    const organizationId = values.organization ?? ''
    if (!organizationId.startsWith('org_') || organizationId.length > MAX_ORGANIZATION_ID_LENGTH)
      throw usageError(fxConfigure, '--organization is required: an organization id (org_...)')
    const customerId = values.customer
    if (customerId !== undefined && !CUSTOMER_ID.test(customerId))
      throw usageError(fxConfigure, '--customer must be a customer id (cus_...)')
    const spreadBps = spread(values['spread-bps'])
    if (values['clear-spread'] && (customerId === undefined || spreadBps !== undefined))
      throw usageError(fxConfigure, '--clear-spread goes with --customer, without --spread-bps')
    if (customerId !== undefined && spreadBps === undefined && !values['clear-spread'])
      throw usageError(fxConfigure, '--customer needs --spread-bps <n> or --clear-spread')
    const settings = defined<FxSettings>({
      fxEnabled: onOff(values.fx, 'fx'),
      fiatPairsEnabled: onOff(values['fiat-pairs'], 'fiat-pairs'),
      indicativeRatesEnabled: onOff(values['indicative-rates'], 'indicative-rates'),
      enabledPairs: pairs(values.pairs),
      spreadBps: customerId === undefined ? spreadBps : undefined,
    })
    const providerText = values.provider
    if (providerText !== undefined && providerText !== 'available' && providerText !== 'unavailable')
      throw usageError(fxConfigure, '--provider must be available or unavailable')
    const capacity = values['capacity-usd']
    if (capacity !== undefined && !(/^\d{1,10}$/.test(capacity) && BigInt(capacity) <= FX_SETTINGS_LIMITS.maxCapacityUsd))
      throw usageError(fxConfigure, `--capacity-usd must be whole US dollars, at most ${FX_SETTINGS_LIMITS.maxCapacityUsd}`)
    const provider = defined<SandboxProvider>({
      available: providerText === undefined ? undefined : providerText === 'available',
      capacityUsd: capacity,
    })
    const operator = values.operator?.trim()
    if (operator !== undefined && (operator.length === 0 || operator.length > FX_SETTINGS_LIMITS.configuredByMaxLength))
      throw usageError(fxConfigure, `--operator must be 1 to ${FX_SETTINGS_LIMITS.configuredByMaxLength} characters`)
    if (!settings && !provider && customerId === undefined) throw usageError(fxConfigure, 'nothing to change: give at least one setting')
    return async ({ runtime, out, log }) => {
      const environment = runtime.config.APP_ENV
      if (provider && environment !== 'sandbox')
        throw usageError(fxConfigure, '--provider and --capacity-usd set the sandbox liquidity provider: not in production')
      const actor = cliActor()
      const state = await configureFx(
        runtime.commands,
        {
          organizationId,
          environment,
          ...(settings ? { settings } : {}),
          ...(provider ? { provider } : {}),
          ...(customerId !== undefined ? { customer: { customerId, spreadBps: spreadBps ?? null } } : {}),
          configuredBy: operator ?? actor,
          now: new Date().toISOString(),
        },
        actor,
      )
      log.info({ organizationId, customerId, settings, provider }, 'fx configured')
      await out.document({
        organizationId,
        ...(state.settings ?? defaultFxSettings(environment)),
        customerSpreads: state.customerSpreads,
        ...(environment === 'sandbox' ? { sandboxProvider: state.provider ?? DEFAULT_SANDBOX_PROVIDER } : {}),
      })
    }
  },
}
