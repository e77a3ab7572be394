// The server's one list of areas: one plugin per slice (server/areas/<slice>.ts), each registered
// inside /v1 with the same context (server/areas/areaContext.ts). A slice's plugin registers its
// write and read routes and builds what only it needs; a new slice adds its file and one line here.
// ROOT_AREA_PLUGINS are served outside /v1 with the same context and authenticate in their own scope.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { accountsArea } from './areas/accounts.js'
import { agentsArea } from './areas/agents.js'
import { auditArea } from './areas/audit.js'
import type { AreaContext } from './areas/areaContext.js'
import { counterpartiesArea } from './areas/counterparties.js'
import { customersArea } from './areas/customers.js'
import { fixedRoutesArea } from './areas/fixedRoutes.js'
import { fxArea } from './areas/fx.js'
import { liquidityFacilityArea } from './areas/liquidityFacility.js'
import { transfersArea } from './areas/transfers.js'
import { transferDraftsArea } from './areas/transferDrafts.js'
import { invoicesArea } from './areas/invoices.js'
import { webhookEndpointsArea } from './areas/webhookEndpoints.js'
import { webhookMessagesArea } from './areas/webhookMessages.js'
import { mcpArea } from './mcp/route.js'

export const AREA_PLUGINS: readonly FastifyPluginAsyncZod<AreaContext>[] = [
  webhookEndpointsArea,
  customersArea,
  accountsArea,
  webhookMessagesArea,
  counterpartiesArea,
  liquidityFacilityArea,
  transfersArea,
  fixedRoutesArea,
  fxArea,
  agentsArea,
  transferDraftsArea,
  invoicesArea,
  auditArea,
]

/** Areas outside /v1: the MCP server at /mcp (JSON-RPC for agents, not a REST operation). */
export const ROOT_AREA_PLUGINS: readonly FastifyPluginAsyncZod<AreaContext>[] = [mcpArea]
