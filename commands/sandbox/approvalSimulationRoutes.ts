// Sandbox: the shortcut to an APPROVED individual customer, taken through the real steps (test
// documents uploaded, the missing verification data saved with terms accepted and submitted, the
// review approved), each as its own command, so events, webhooks and history read as the full path's.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { customerResource, toCustomerResource } from '../../domain/customer/resource.js'
import { requireEditable, requireNotErased, requireType } from '../../domain/customer/guards.js'
import { CAPABILITIES } from '../../domain/customer/rules/capabilities.js'
import { documentRefs } from '../../domain/customer/validation/documentRefs.js'
import type { DocumentContentStore } from '../../domain/document/contentStore.js'
import { sha256Hex } from '../../domain/document/content.js'
import { assertInvariant, notFound } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import { customerIdParams } from '../../http/customerParams.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { customerCommands, existing } from '../customers/customerCommands.js'
import type { CustomerRouteDeps } from '../customers/deps.js'
import { loadCustomer, loadDocumentFacts } from '../customers/facts.js'
import { assertCustomerInScope } from '../customers/scope.js'
import { documentCommands } from '../documents/routes.js'
import { type TestDocumentRole, sandboxVerificationPlan } from './sandboxVerification.js'
import { sandboxOnly } from './sandboxOnly.js'

const simulateApprovalBody = z
  .object({
    requestedCapabilities: z
      .array(z.enum(CAPABILITIES))
      .max(CAPABILITIES.length)
      .optional()
      .describe('Capabilities to request (they replace the saved ones); omitted: the saved ones, or every capability when none were'),
  })
  .strict()
  .nullish()

export type ApprovalSimulationDeps = Pick<CustomerRouteDeps, 'commands' | 'environment'> & { documentContents: DocumentContentStore }

export const sandboxApprovalSimulationRoutes: FastifyPluginAsyncZod<ApprovalSimulationDeps> = async (app, deps) => {
  const customers = deps.commands.bind(customerCommands)
  const documents = deps.commands.bind(documentCommands)
  sandboxOnly(app, deps.environment)

  app.post(
    '/sandbox/customers/:id/simulate-approval',
    {
      schema: {
        operationId: 'simulateCustomerApproval',
        tags: ['Sandbox'],
        summary: 'Sandbox: take an individual customer to APPROVED in one call',
        description:
          'Sandbox only (403 sandbox_only in production). The shortcut of the full path (upload documents, save the verification with ' +
          'submit=true, simulate-review APPROVED), taken as those same steps: for each requirement the customer still misses it ' +
          'uploads a test document (passport image, selfie, a utility bill outside the US) or saves test data (phone, date of birth, ' +
          'tax id, address), accepts the terms, submits and approves; data the customer already has is kept. Events and webhooks are ' +
          "the full path's (customer.updated, customer.status_changed, customer.verified). A DRAFT or NEEDS_MORE_INFORMATION customer " +
          'goes through every step, an UNDER_REVIEW one is approved, an APPROVED one is answered unchanged. 409 customer_type_mismatch ' +
          'for a business customer (use the full path), customer_not_editable when REJECTED or ARCHIVED, customer_erased after erasure.',
        headers: writeHeaders,
        params: customerIdParams,
        body: simulateApprovalBody,
        response: { 202: customerResource, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const customerId = request.params.id
      assertCustomerInScope(request, customerId)
      const state = await loadCustomer(deps.commands, customerId)
      if (!state.exists || state.organizationId !== organizationId) throw notFound('Customer', customerId)
      requireType(state, 'INDIVIDUAL')
      if (state.status === 'APPROVED') return reply.code(202).send(toCustomerResource(state))
      requireNotErased(state)

      let customer = state
      if (customer.status !== 'UNDER_REVIEW') {
        requireEditable(customer)
        const now = new Date()
        const plan = sandboxVerificationPlan(customer, now, request.body?.requestedCapabilities)
        const ids: Partial<Record<TestDocumentRole, string>> = {}
        for (const document of plan.documents) {
          const documentId = newId('doc')
          const sha256 = sha256Hex(document.content)
          await deps.documentContents.put({ documentId, organizationId, customerId, content: document.content, sha256 })
          await documents.handle(request, {
            type: 'UploadDocument',
            documentId,
            organizationId,
            customerId,
            fileName: document.fileName,
            contentType: document.contentType,
            sizeBytes: document.content.length,
            sha256,
            uploadedAt: now.toISOString(),
          })
          ids[document.role] = documentId
        }
        const body = plan.body(ids)
        const refs = [...documentRefs(customer.individual), ...documentRefs(body)].map((r) => r.documentId)
        customer = existing(
          await customers.handleToState(request, {
            type: 'SaveIndividualVerification',
            organizationId,
            customerId,
            now: new Date().toISOString(),
            body,
            submit: true,
            documents: await loadDocumentFacts(deps.commands, refs),
            agreements: {},
            acceptanceIds: [newId('tosa')],
          }),
        )
        assertInvariant(customer.status === 'UNDER_REVIEW', `the sandbox test data left customer ${customerId} ${customer.status}`)
      }
      const approved = await customers.handle(request, {
        type: 'SimulateReview',
        organizationId,
        customerId,
        now: new Date().toISOString(),
        outcome: 'APPROVED',
        reasons: [],
      })
      return reply.code(202).send(approved)
    },
  )
}
