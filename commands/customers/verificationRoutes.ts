// Save verification data (individual or business) with the spec's `submit` query flag.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CUSTOMER_TAGS, customerIdParams } from '../../http/customerParams.js'
import { writeHeaders } from '../../http/headers.js'
import { toVerificationResult, verificationResult } from '../../domain/customer/resource.js'
import { saveBusinessVerificationBody } from '../../domain/customer/schemas/businessVerification.js'
import { saveIndividualVerificationBody, submitQuery } from '../../domain/customer/schemas/individualVerification.js'
import { documentRefs } from '../../domain/customer/validation/documentRefs.js'
import { errorResponses } from '../../http/errorBody.js'
import { newId } from '../../domain/shared/ids.js'
import { principalOf } from '../../http/principal.js'
import { customerCommands, existing } from './customerCommands.js'
import type { CustomerRouteDeps } from './deps.js'
import { loadAgreementFacts, loadCustomer, loadDocumentFacts } from './facts.js'

const RULES = [
  'Rules (422 ValidationError, details[].field names each field): transliterated names when a name has characters outside Latin-1;',
  'accountPurposeExplanation when accountPurpose is OTHER; taxResidenceCountry only when it differs from nationality;',
  "taxIdentificationNumber in the nationality's format (NOT_APPLICABLE refused for US nationals; OVERRIDE: stored as is);",
  'proofOfAddress dated within 90 days; governmentId not expired, with a backImage when two-sided; dates not in the future;',
  'documents uploaded by this organization for this customer (or for none); signedAgreementId from POST /v1/tos/generate.',
  'Format rules (E.164 phone, YYYY-MM-DD dates, enums, lengths) are 400 invalid_request.',
  '409 customer_not_editable unless DRAFT or NEEDS_MORE_INFORMATION; 409 customer_type_mismatch for the other customer type.',
].join(' ')

/** Fresh acceptance ids, one per terms method a body may use. */
const acceptanceIds = () => [newId('tosa'), newId('tosa'), newId('tosa')]

export const verificationWriteRoutes: FastifyPluginAsyncZod<CustomerRouteDeps> = async (app, deps) => {
  const customers = deps.commands.bind(customerCommands)
  /** Facts of every document the saved and the new data reference, and of the named agreement. */
  async function factsFor(
    customerId: string,
    pick: 'individual' | 'business',
    body: Parameters<typeof documentRefs>[0] & { signedAgreementId?: string | undefined },
  ) {
    const state = await loadCustomer(deps.commands, customerId)
    const saved = state.exists ? state[pick] : {}
    const ids = [...documentRefs(saved), ...documentRefs(body)].map((r) => r.documentId)
    const [documents, agreements] = await Promise.all([
      loadDocumentFacts(deps.commands, ids),
      loadAgreementFacts(deps.commands, body.signedAgreementId),
    ])
    return { documents, agreements }
  }

  app.post(
    '/customers/:id/verification',
    {
      schema: {
        operationId: 'saveCustomerVerification',
        tags: CUSTOMER_TAGS,
        summary: 'Save individual customer verification (submit=true also submits)',
        description:
          `Every field optional; omitted fields keep their saved value. Submitting needs names, email, phone, date of birth, ` +
          `tax id, residential address, government id, selfie, proof of address outside the US and terms acceptance; anything missing ` +
          `keeps the customer as it is and is listed in missingRequirements. ${RULES}`,
        headers: writeHeaders,
        params: customerIdParams,
        querystring: submitQuery,
        body: saveIndividualVerificationBody,
        response: { 200: verificationResult, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const customerId = request.params.id
      const facts = await factsFor(customerId, 'individual', request.body)
      const state = await customers.handleToState(request, {
        type: 'SaveIndividualVerification',
        organizationId: principalOf(request).organizationId,
        customerId,
        now: new Date().toISOString(),
        body: request.body,
        submit: request.query.submit,
        acceptanceIds: acceptanceIds(),
        ...facts,
      })
      return toVerificationResult(existing(state), new Date())
    },
  )

  app.post(
    '/customers/:id/business_verification',
    {
      schema: {
        operationId: 'saveBusinessVerification',
        tags: CUSTOMER_TAGS,
        summary: 'Save business customer verification (submit=true also submits)',
        description:
          `Every field optional; omitted fields keep their saved value. Submitting needs legal name, email, registration ` +
          `number, tax id (EIN for US), date of incorporation, registered address, a BUSINESS_FORMATION document, terms acceptance, and ` +
          `every individual with 25% or more effective ownership (or else a control person) with name, date of birth, address and tax ` +
          `id. ${RULES}`,
        headers: writeHeaders,
        params: customerIdParams,
        querystring: submitQuery,
        body: saveBusinessVerificationBody,
        response: { 200: verificationResult, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const customerId = request.params.id
      const facts = await factsFor(customerId, 'business', request.body)
      const state = await customers.handleToState(request, {
        type: 'SaveBusinessVerification',
        organizationId: principalOf(request).organizationId,
        customerId,
        now: new Date().toISOString(),
        body: request.body,
        submit: request.query.submit,
        acceptanceIds: acceptanceIds(),
        ...facts,
      })
      return toVerificationResult(existing(state), new Date())
    },
  )
}
