// The payment tools: check a transfer (every agent: it changes nothing), create and submit one
// (PAYMENT agents only: agentMcpServer.ts registers them by role, and the REST route refuses a
// PAYMENT_OPERATIONS agent's key anyway). Writes take an idempotencyKey, sent as Idempotency-Key.
import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { McpCaller } from './caller.js'
import { transferIdArg } from './readTools.js'
import { errorOf, isJsonObject, objectResult, toolResult } from './toolResult.js'
import { idempotencyArg, toCreateBody, transferArgs } from './transferInput.js'

export function registerCheckTool(server: McpServer, caller: McpCaller): void {
  server.registerTool(
    'check_transfer',
    {
      title: 'Check a transfer before making it',
      description:
        'What create_transfer would do with these arguments, changing nothing: wouldSucceed, and otherwise the limit it would hit ' +
        '(denial, hint) or the error it would answer (error: statusCode, code, message, details). Reserves nothing; a transfer made ' +
        'meanwhile can still use the room it saw.',
      inputSchema: transferArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => objectResult(await caller.check(toCreateBody(caller.agent, args))),
  )
}

export function registerWriteTools(server: McpServer, caller: McpCaller): void {
  server.registerTool(
    'create_transfer',
    {
      title: 'Create a transfer',
      description:
        'Pays one of your allowed payees from your source account, within your limits. confirm false keeps a DRAFT (nothing ' +
        'reserved) to submit with submit_transfer. Over a limit: an error with denial and hint, nothing created.',
      inputSchema: transferArgs.extend(idempotencyArg),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ idempotencyKey, ...args }) =>
      toolResult(await caller.rest({ method: 'POST', url: '/v1/transfers', payload: toCreateBody(caller.agent, args), idempotencyKey })),
  )
  server.registerTool(
    'submit_transfer',
    {
      title: 'Submit a draft transfer',
      description:
        'Submits one of your DRAFT transfers: its amount is checked against your limits then. Over a limit, a DENY agent gets an ' +
        'error with denial and hint; a REQUEST_APPROVAL agent gets pendingApproval true: poll get_transfer until agentApprovalStatus ' +
        'is APPROVED or DECLINED.',
      inputSchema: z.object({ transferId: transferIdArg, ...idempotencyArg }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ transferId, idempotencyKey }) => {
      const url = `/v1/transfers/${encodeURIComponent(transferId)}/submit`
      const answer = await caller.rest({ method: 'POST', url, idempotencyKey })
      const body = isJsonObject(answer.body) ? answer.body : {}
      // Waiting for the owner is the expected outcome of a REQUEST_APPROVAL agent, not a failure: the model should poll, not retry.
      if (answer.statusCode === 403 && body.code === 'agent_approval_required')
        return objectResult({
          transferId,
          pendingApproval: true,
          ...errorOf(answer),
          hint: `The owner must approve it: poll get_transfer with ${transferId} until agentApprovalStatus is APPROVED or DECLINED`,
        })
      return toolResult(answer)
    },
  )
}
