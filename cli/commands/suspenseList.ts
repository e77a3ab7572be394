// `suspense list [--organization <org_id>] [--limit <n>]`: the transfers holding money in suspense (a
// credit their money needed was refused: a closed destination, a closed account to return it to),
// oldest first, with the amount, why, and since when. One JSON document: { items, truncated }.
import { parseArgs } from 'node:util'
import { toWire } from '../../domain/shared/money/index.js'
import { HELD_FUNDS_LIMITS, listHeldFunds } from '../../read-api/transfers/heldFunds.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'

const ORGANIZATION_ID = /^org_[0-9a-z]{26}$/

export const suspenseList: CliCommand = {
  words: ['suspense', 'list'],
  usage: `suspense list [--organization <org_id>] [--limit <1-${HELD_FUNDS_LIMITS.maxListed}>]`,
  summary: 'list the transfers holding money in suspense (IN_REVIEW after a refused credit), oldest first',
  parse(argv) {
    const { values } = parseOrUsage(suspenseList, () =>
      parseArgs({ args: argv, options: { organization: { type: 'string' }, limit: { type: 'string' } }, strict: true }),
    )
    if (values.organization !== undefined && !ORGANIZATION_ID.test(values.organization))
      throw usageError(suspenseList, '--organization must be an organization id (org_...)')
    const limit = values.limit === undefined ? HELD_FUNDS_LIMITS.maxListed : Number(values.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > HELD_FUNDS_LIMITS.maxListed)
      throw usageError(suspenseList, `--limit must be an integer from 1 to ${HELD_FUNDS_LIMITS.maxListed}`)
    return async ({ runtime, out }) => {
      // Fresh read models first, when this process can bring them forward.
      await runtime.runner.catchUp().catch(() => undefined)
      const rows = await listHeldFunds(runtime.db, { organizationId: values.organization }, limit + 1)
      const items = rows.slice(0, limit).map(({ currency, amountMinor, ...row }) => ({
        ...row,
        amount: toWire({ currency, amountMinor: BigInt(amountMinor) }),
      }))
      await out.document({ items, truncated: rows.length > limit })
    }
  },
}
