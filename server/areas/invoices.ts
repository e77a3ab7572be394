// The invoices slice (issue 28): writes (create, change, delete, finalize, send, cancel), reads (one, the
// list, the hosted page), and the sandbox payer. Its overdue timer is in commands/scheduler, its
// payment workflow in commands/workflows, its matching of fixed-route deposits in the sandbox route.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { invoiceRoutes } from '../../commands/invoices/invoiceRoutes.js'
import { sandboxInvoiceRoutes } from '../../commands/sandbox/invoiceSimulationRoutes.js'
import { payeeAccountReads } from '../../read-api/invoices/payeeAccounts.js'
import { invoiceReadRoutes } from '../../read-api/invoices/routes.js'
import type { AreaContext } from './areaContext.js'

export const invoicesArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  await app.register(invoiceRoutes, { ...c, payeeAccounts: payeeAccountReads(c.db) })
  await app.register(invoiceReadRoutes, c)
  await app.register(sandboxInvoiceRoutes, c)
}
