// The read tools, for every agent: its limits, one of its transfers, a page of its transfers. Each
// is one GET of the REST API with the agent's key (agent scope: its own agent, its own transfers).
import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { transferStatusSchema } from '../../domain/transfer/statuses.js'
import { ID_PARAM_MAX_LENGTH } from '../../http/idParam.js'
import type { McpCaller } from './caller.js'
import { toolResult } from './toolResult.js'

export const MCP_LIST_LIMITS = {
  /** A page a model reads at once: the REST list allows 1000, a context window does not. */
  maxPageSize: 100,
  defaultPageSize: 20,
} as const

export const transferIdArg = z.string().min(1).max(ID_PARAM_MAX_LENGTH).describe('The transfer id (tfr_…)')

const listArgs = z
  .object({
    status: transferStatusSchema.optional().describe('Only transfers in this status'),
    pageSize: z.number().int().min(1).max(MCP_LIST_LIMITS.maxPageSize).optional().describe('Transfers per page, newest first'),
    startingAfter: transferIdArg.optional().describe('The last transfer id of the previous page, for the next one'),
  })
  .strict()

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const

export function registerReadTools(server: McpServer, caller: McpCaller): void {
  const { agentId } = caller.agent
  server.registerTool(
    'get_limits',
    {
      title: 'Read my limits',
      description:
        'Your spending limits (per transaction, per UTC day, per UTC month) with what each window has used and has left, in minor ' +
        'units of the limits currency, and when each window resets.',
      annotations: READ_ONLY,
    },
    async () => toolResult(await caller.rest({ method: 'GET', url: `/v1/agents/${agentId}/limits` })),
  )
  server.registerTool(
    'get_transfer',
    {
      title: 'Read a transfer',
      description: 'One of your transfers: status, amounts, fees, agentApprovalStatus (PENDING while it waits for the owner).',
      inputSchema: z.object({ transferId: transferIdArg }).strict(),
      annotations: READ_ONLY,
    },
    async ({ transferId }) => toolResult(await caller.rest({ method: 'GET', url: `/v1/transfers/${encodeURIComponent(transferId)}` })),
  )
  server.registerTool(
    'list_transfers',
    {
      title: 'List my transfers',
      description: 'The transfers you made, newest first, a page at a time (has_more tells whether another page follows).',
      inputSchema: listArgs,
      annotations: READ_ONLY,
    },
    async (args) => {
      const query = new URLSearchParams({ agentId, page_size: String(args.pageSize ?? MCP_LIST_LIMITS.defaultPageSize) })
      if (args.status !== undefined) query.set('status', args.status)
      if (args.startingAfter !== undefined) query.set('starting_after', args.startingAfter)
      return toolResult(await caller.rest({ method: 'GET', url: `/v1/transfers?${query.toString()}` }))
    },
  )
}
