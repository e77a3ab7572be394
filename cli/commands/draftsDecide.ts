// `drafts approve <draftId>` and `drafts reject <draftId>`: an operator's screening decision on a
// transfer draft (commands/transfer-drafts/operatorDecision.ts), the way a production draft is
// approved or rejected; the events record the operator as `cli:<user>`. Prints the approval record.
import { parseArgs } from 'node:util'
import { decideDraftAsOperator } from '../../commands/transfer-drafts/operatorDecision.js'
import { toTransferDraftResource } from '../../domain/transfer-draft/resource.js'
import type { ScreeningOutcome } from '../../domain/transfer-draft/screening.js'
import { cliActor } from '../cliRuntime.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'

const DRAFT_ID = /^tdraft_[0-9a-z]{26}$/

function draftsDecide(verb: 'approve' | 'reject', outcome: ScreeningOutcome): CliCommand {
  const command: CliCommand = {
    words: ['drafts', verb],
    usage: `drafts ${verb} <draftId>`,
    summary: `${verb} a transfer draft awaiting platform approval (${outcome}; the operator's screening decision)`,
    parse(argv) {
      const { positionals } = parseOrUsage(command, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true }))
      const draftId = positionals[0] ?? ''
      if (positionals.length !== 1 || !DRAFT_ID.test(draftId)) throw usageError(command, 'exactly one transfer draft id (tdraft_...)')
      const actor = cliActor()
      return async ({ runtime, out, log }) => {
        const state = await decideDraftAsOperator(runtime.commands, { draftId, outcome, actor, now: new Date() })
        log.warn({ draftId, outcome, actor }, 'transfer draft decided by an operator')
        await out.document(toTransferDraftResource(state))
      }
    },
  }
  return command
}

export const draftsApprove = draftsDecide('approve', 'APPROVED')
export const draftsReject = draftsDecide('reject', 'REJECTED')
