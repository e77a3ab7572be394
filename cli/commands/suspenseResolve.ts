// `suspense resolve <transferId> (--to <accountId> | --release) --reason "<why>" [--yes] [--actor <who>]`:
// sends a transfer's money held in suspense on (commands/transfers/resolveHeldFunds.ts): to a balance
// account of its organization (credited from suspense), or out of the service with --release (it was
// paid back by other means). The transfer becomes REVERSED. Asks for confirmation (--yes for scripts).
import { parseArgs } from 'node:util'
import { resolveHeldFunds } from '../../commands/transfers/resolveHeldFunds.js'
import { toTransferResource } from '../../domain/transfer/resource.js'
import { TRANSFER_EVENT_LIMITS } from '../../domain/transfer/events.js'
import { auditText } from '../auditText.js'
import { cliActor } from '../cliRuntime.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { confirmed } from '../confirm.js'
import { CliError } from '../output.js'

const TRANSFER_ID = /^tfr_[0-9a-z]{26}$/
const ACCOUNT_ID = /^[a-z]{2,4}_[0-9a-z]{26}$/

export const suspenseResolve: CliCommand = {
  words: ['suspense', 'resolve'],
  usage: 'suspense resolve <transferId> (--to <accountId> | --release) --reason "<why>" [--yes] [--actor <who>]',
  summary: "send a transfer's money held in suspense to a balance account, or out of the service (asks for confirmation)",
  parse(argv) {
    const { values, positionals } = parseOrUsage(suspenseResolve, () =>
      parseArgs({
        args: argv,
        options: {
          to: { type: 'string' },
          release: { type: 'boolean' },
          reason: { type: 'string' },
          yes: { type: 'boolean' },
          actor: { type: 'string' },
        },
        strict: true,
        allowPositionals: true,
      }),
    )
    const transferId = positionals[0] ?? ''
    if (positionals.length !== 1 || !TRANSFER_ID.test(transferId)) throw usageError(suspenseResolve, 'exactly one transfer id (tfr_...)')
    if ((values.to === undefined) === (values.release !== true)) throw usageError(suspenseResolve, 'give --to <accountId> or --release')
    if (values.to !== undefined && !ACCOUNT_ID.test(values.to)) throw usageError(suspenseResolve, '--to must be an account id')
    const reason = auditText(suspenseResolve, 'reason', values.reason, TRANSFER_EVENT_LIMITS.textMaxLength)
    if (reason === undefined) throw usageError(suspenseResolve, '--reason is required: say why, for the record')
    const actor = auditText(suspenseResolve, 'actor', values.actor, 200) ?? cliActor()
    const to = values.to ?? null
    return async ({ runtime, out, log }) => {
      const where = to === null ? 'out of the service (released)' : `to account ${to}`
      if (values.yes !== true && !(await confirmed(`Send the money transfer ${transferId} holds in suspense ${where}?`)))
        throw new CliError('not_confirmed', 'Nothing resolved: not confirmed (answer yes, or pass --yes)', { transferId })
      const state = await resolveHeldFunds(runtime.commands, { transferId, to, reason, actor })
      log.warn({ transferId, to, actor }, 'held money resolved')
      await out.document(toTransferResource(state))
    }
  },
}
