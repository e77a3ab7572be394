// `liquidity configure --organization <org> --credit-limit <minor> --maximum-draw <minor>
// --fee-bps-per-hour <n> --fee-cap-hours <n> [--currency USDC|USDT] [--operator <name>]`: sets an
// organization's credit line. Audited: the facility's stream records the operator as the event's
// actor and as configuredBy. Amounts are integer minor units of the currency (USDC: 6 decimals).
import { parseArgs } from 'node:util'
import { configureCreditLine } from '../../commands/liquidity-facility/configureCreditLine.js'
import { FACILITY_CURRENCIES } from '../../domain/liquidity-facility/events.js'
import { parseFeeBps } from '../../domain/liquidity-facility/fee.js'
import { LIQUIDITY_LIMITS } from '../../domain/liquidity-facility/limits.js'
import { remainingCredit } from '../../domain/liquidity-facility/state.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { cliActor } from '../cliRuntime.js'

const MINOR_UNITS = /^\d{1,30}$/
/** Longer than any id we issue. */
const MAX_ORGANIZATION_ID_LENGTH = 100

export const liquidityConfigure: CliCommand = {
  words: ['liquidity', 'configure'],
  usage:
    'liquidity configure --organization <orgId> --credit-limit <minor> --maximum-draw <minor> --fee-bps-per-hour <n> ' +
    '--fee-cap-hours <n> [--currency USDC|USDT] [--operator <name>]',
  summary: "configure an organization's credit line (amounts in minor units; audited)",
  parse(argv) {
    const { values } = parseOrUsage(liquidityConfigure, () =>
      parseArgs({
        args: argv,
        options: {
          organization: { type: 'string' },
          'credit-limit': { type: 'string' },
          'maximum-draw': { type: 'string' },
          'fee-bps-per-hour': { type: 'string' },
          'fee-cap-hours': { type: 'string' },
          currency: { type: 'string' },
          operator: { type: 'string' },
        },
        strict: true,
        allowPositionals: false,
      }),
    )
    const organizationId = values.organization ?? ''
    if (!organizationId.startsWith('org_') || organizationId.length > MAX_ORGANIZATION_ID_LENGTH)
      throw usageError(liquidityConfigure, '--organization is required: an organization id (org_...)')
    const creditLimit = values['credit-limit'] ?? ''
    const maximumDraw = values['maximum-draw'] ?? ''
    if (!MINOR_UNITS.test(creditLimit)) throw usageError(liquidityConfigure, '--credit-limit is required: an integer of minor units')
    if (!MINOR_UNITS.test(maximumDraw)) throw usageError(liquidityConfigure, '--maximum-draw is required: an integer of minor units')
    const feeBps = values['fee-bps-per-hour'] ?? ''
    if (parseFeeBps(feeBps) === undefined)
      throw usageError(
        liquidityConfigure,
        `--fee-bps-per-hour is required: a decimal from 0 to ${LIQUIDITY_LIMITS.maxFeeBpsPerHour} with at most ` +
          `${LIQUIDITY_LIMITS.feeBpsFractionDigits} places (1.5 is 1.5 bps an hour)`,
      )
    const capText = values['fee-cap-hours'] ?? ''
    const feeCapHours = /^\d{1,5}$/.test(capText) ? Number(capText) : NaN
    if (!(feeCapHours >= 1 && feeCapHours <= LIQUIDITY_LIMITS.maxFeeCapHours))
      throw usageError(liquidityConfigure, `--fee-cap-hours is required: a whole number of hours, 1 to ${LIQUIDITY_LIMITS.maxFeeCapHours}`)
    const currency = FACILITY_CURRENCIES.find((c) => c === (values.currency ?? 'USDC'))
    if (!currency) throw usageError(liquidityConfigure, `--currency must be one of ${FACILITY_CURRENCIES.join(', ')}`)
    const operator = values.operator?.trim()
    if (operator !== undefined && (operator.length === 0 || operator.length > LIQUIDITY_LIMITS.configuredByMaxLength))
      throw usageError(liquidityConfigure, `--operator must be 1 to ${LIQUIDITY_LIMITS.configuredByMaxLength} characters`)
    return async ({ runtime, out, log }) => {
      const actor = cliActor()
      const configuredBy = operator ?? actor
      const now = new Date().toISOString()
      const { state } = await configureCreditLine(
        runtime.commands,
        {
          organizationId,
          currency,
          creditLimitMinor: BigInt(creditLimit),
          maximumDrawMinor: BigInt(maximumDraw),
          fundingFeeBpsPerHour: feeBps,
          feeCapHours,
          configuredBy,
          now,
        },
        { actor },
      )
      log.info({ organizationId, configuredBy, creditLimit, maximumDraw, feeBps, feeCapHours, currency }, 'credit line configured')
      await out.document({
        organizationId,
        currency: state.currency,
        network: state.network,
        creditLimit: state.creditLimitMinor.toString(),
        maximumDrawAmount: state.maximumDrawMinor.toString(),
        fundingFeeBpsPerHour: Number(state.terms.fundingFeeBpsPerHour),
        feeCapHours: state.terms.feeCapHours,
        borrowedAmount: state.borrowedMinor.toString(),
        remainingCredit: remainingCredit(state).toString(),
        configuredBy,
        configuredAt: now,
      })
    }
  },
}
