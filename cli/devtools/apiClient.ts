// The public HTTP API as `listen` and `trigger` call it: one function per operation, named as its
// operationId will be, so these developer tools can move to the typed SDK (sdk/) by changing this file alone.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { webhookEndpointResource, webhookSecretResource } from '../../domain/webhook-endpoint/resource.js'
import { testEventResult, webhookMessageResource } from '../../webhooks/api/resources.js'
import { CliError } from '../output.js'

export const API_CLIENT_LIMITS = {
  /** One call, connect to last byte: the service answers a write well within this. */
  requestTimeoutMs: 15_000,
  /** Error text kept from a response that is not the API's JSON error body. */
  errorTextMaxLength: 500,
} as const

export type ApiClientOptions = { baseUrl: string; apiKey: string }

/** What the tools read of a created resource: its id, and its status when it has one. */
const createdResource = z.looseObject({ id: z.string(), status: z.string().optional() })
export type CreatedResource = z.infer<typeof createdResource>

const apiErrorBody = z.looseObject({ code: z.string().optional(), message: z.string().optional(), details: z.unknown().optional() })
const messagePage = z.looseObject({ data: z.array(webhookMessageResource) })
const fundInResult = z.looseObject({ accountId: z.string(), credited: z.boolean() })
const deletedResult = z.looseObject({ id: z.string(), deleted: z.literal(true) })

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Call = { method: Method; path: string; body?: unknown; expect: number }

export type ApiClient = ReturnType<typeof createApiClient>

export function createApiClient({ baseUrl, apiKey }: ApiClientOptions) {
  const root = baseUrl.replace(/\/+$/, '')

  async function call<S extends z.ZodType>(schema: S, { method, path, body, expect }: Call): Promise<z.infer<S>> {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    // Every write carries a fresh key: a call the network loses can be sent again without acting twice.
    if (method !== 'GET') headers['idempotency-key'] = randomUUID()
    let response: Response
    try {
      response = await fetch(`${root}/v1${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(API_CLIENT_LIMITS.requestTimeoutMs),
      })
    } catch (error) {
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)
      throw new CliError('api_unreachable', `${method} ${root}/v1${path} failed: ${reason}`, { baseUrl: root })
    }
    const text = await response.text()
    if (response.status !== expect) throw apiCallError(method, path, response.status, text)
    const parsed = schema.safeParse(text === '' ? undefined : parseJson(text))
    if (!parsed.success) throw new CliError('api_unexpected_response', `${method} /v1${path} answered a body this CLI does not understand`)
    return parsed.data
  }

  const create = (path: string, body: unknown, expect = 201) => call(createdResource, { method: 'POST', path, body, expect })
  /** A POST whose answer these tools do not read. */
  const act = async (path: string, body: unknown, expect = 200): Promise<void> => {
    await call(z.unknown(), { method: 'POST', path, body, expect })
  }

  return {
    baseUrl: root,
    // Webhook endpoints and messages
    createWebhookEndpoint: (body: { url: string; description: string; filterTypes: string[]; metadata: Record<string, string> }) =>
      call(webhookEndpointResource, { method: 'POST', path: '/webhooks/endpoints', body, expect: 201 }),
    getWebhookEndpoint: (id: string) => call(webhookEndpointResource, { method: 'GET', path: `/webhooks/endpoints/${id}`, expect: 200 }),
    updateWebhookEndpoint: (id: string, body: { url?: string; filterTypes?: string[]; disabled?: boolean; description?: string }) =>
      call(webhookEndpointResource, { method: 'PUT', path: `/webhooks/endpoints/${id}`, body, expect: 200 }),
    getWebhookEndpointSecret: (id: string) =>
      call(webhookSecretResource, { method: 'GET', path: `/webhooks/endpoints/${id}/secret`, expect: 200 }),
    sendWebhookTestEvent: (id: string) =>
      call(testEventResult, { method: 'POST', path: `/webhooks/endpoints/${id}/test`, body: {}, expect: 202 }),
    listWebhookMessages: (query: { eventTypes: string; tag: string; limit: number }) => {
      const search = new URLSearchParams({ eventTypes: query.eventTypes, tag: query.tag, limit: String(query.limit) })
      return call(messagePage, { method: 'GET', path: `/webhooks/messages?${search.toString()}`, expect: 200 })
    },
    // Customers and their documents
    createIndividualCustomer: (body: Record<string, unknown>) => create('/customers/individuals', body),
    saveCustomerVerification: (id: string, body: Record<string, unknown>, submit: boolean) =>
      act(`/customers/${id}/verification?submit=${String(submit)}`, body),
    simulateCustomerApproval: (id: string, requestedCapabilities: readonly string[]) =>
      act(`/sandbox/customers/${id}/simulate-approval`, { requestedCapabilities }, 202),
    deleteCustomer: (id: string) => call(deletedResult, { method: 'DELETE', path: `/customers/${id}`, expect: 200 }),
    // Accounts
    createBalanceAccount: (customerId: string) => create('/balance-accounts', { customerId }),
    simulateFundIn: (accountId: string, body: { amount: string; reference: string }) =>
      call(fundInResult, { method: 'POST', path: `/sandbox/accounts/${accountId}/fund-in`, body, expect: 200 }),
    createExternalBankAccount: (body: Record<string, unknown>) => create('/external-bank-accounts', body),
    // Transfers
    createTransfer: (body: Record<string, unknown>) => create('/transfers', body),
    getTransfer: (id: string) => call(createdResource, { method: 'GET', path: `/transfers/${id}`, expect: 200 }),
    cancelTransfer: (id: string) => create(`/transfers/${id}/cancel`, {}, 200),
    refundTransfer: (id: string) => create(`/transfers/${id}/refund`, {}, 200),
    reverseSandboxTransfer: (id: string) => create(`/sandbox/transfers/${id}/reverse`, undefined, 200),
    simulateTransferDeposit: (id: string) => create(`/sandbox/transfers/${id}/simulate-deposit`, {}, 200),
    /** One rails step now; undefined when the transfer has no step to take (409 transfer_not_advanceable). */
    advanceSandboxTransfer: async (id: string): Promise<CreatedResource | undefined> => {
      try {
        return await create(`/sandbox/transfers/${id}/advance`, undefined, 200)
      } catch (error) {
        if (error instanceof CliError && error.extra.code === 'transfer_not_advanceable') return undefined
        throw error
      }
    },
    // Invoices
    createInvoice: (body: Record<string, unknown>) => create('/invoices', body),
    sendInvoice: (id: string) => create(`/invoices/${id}/send`, undefined, 200),
    cancelInvoice: (id: string) => create(`/invoices/${id}/cancel`, undefined, 200),
    simulateInvoicePayment: (id: string, body: { amount: string; depositReference: string }) =>
      act(`/sandbox/invoices/${id}/simulate-payment`, body),
  }
}

/** The value of a JSON text, or undefined for one that is not JSON (a proxy's HTML page): the schema then refuses it. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The API's error body (code, message, details) as a CLI error; any other body as bounded text. */
function apiCallError(method: Method, path: string, statusCode: number, text: string): CliError {
  const parsed = apiErrorBody.safeParse(parseJson(text))
  const body = parsed.success
    ? parsed.data
    : { message: text.slice(0, API_CLIENT_LIMITS.errorTextMaxLength), code: undefined, details: undefined }
  return new CliError('api_error', `${method} /v1${path} answered ${statusCode}: ${body.message ?? 'no message'}`, {
    statusCode,
    ...(body.code !== undefined ? { code: body.code } : {}),
    ...(body.details !== undefined ? { details: body.details } : {}),
  })
}
