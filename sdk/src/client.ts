// createPaymentsClient: openapi-fetch over the generated types, with the API key (or the browser's
// same-origin session cookie), X-On-Behalf-Of, idempotency keys, retries and timeouts (retryingFetch.ts),
// PaymentsApiError for every non-2xx answer, and `paginate` walking any list to its end.
import createClient, { type Middleware } from 'openapi-fetch'
import { PaymentsApiError } from './errors.js'
import { type PageQuery, type PaginateOptions, paginateItems } from './pagination.js'
import type { Call, HttpMethod, ListItem, ListPath, ListPathParams, ListQuery } from './paths.js'
import { type Fetch, type RetryPolicy, retryPolicyOf, retryingFetch } from './retryingFetch.js'

export type PaymentsClientOptions = {
  /** The service's origin, e.g. `http://localhost:3000` (paths start with /v1). */
  baseUrl: string
  /** sk_sandbox_... or sk_live_...; without one, requests carry the browser's session cookie instead. */
  apiKey?: string
  /** The fetch to send with (tests, proxies); the global one by default. */
  fetch?: Fetch
  /** Cookies: 'omit' with an API key, 'same-origin' without (a console signed in by cookie), unless set here. */
  credentials?: RequestCredentials
  /** A customer id (cus_...): every request acts on that customer's behalf (X-On-Behalf-Of). */
  onBehalfOf?: string
  /** Retries and timeouts (retryingFetch.ts DEFAULT_RETRY_POLICY), each bounded by RETRY_LIMITS. */
  retry?: Partial<RetryPolicy>
  /** Headers sent with every request (a call's own `params.header` or `headers` win). */
  headers?: Record<string, string>
}

export type ListOptions<P extends ListPath> = ListPathParams<P> &
  PaginateOptions & {
    /** The list's filters and, optionally, the page size or the starting cursor of the walk. */
    query?: ListQuery<P>
    headers?: Record<string, string>
  }

export type PaymentsClient = {
  GET: Call<'get'>
  POST: Call<'post'>
  PUT: Call<'put'>
  PATCH: Call<'patch'>
  DELETE: Call<'delete'>
  /** Every item of a list, page after page: `for await (const transfer of client.paginate('/v1/transfers')) ...`. */
  paginate<P extends ListPath>(
    path: P,
    ...options: ListPathParams<P> extends { path: unknown } ? [ListOptions<P>] : [ListOptions<P>?]
  ): AsyncGenerator<ListItem<P>, void, undefined>
}

/** What openapi-fetch is driven with underneath: any path, any JSON. The typed surface is PaymentsClient's. */
type LooseOperation = {
  parameters: { query?: object; path?: object; header?: Record<string, string> }
  requestBody?: { content: { 'application/json': unknown } }
  responses: { 200: { content: { 'application/json': unknown } } }
}
type LoosePaths = Record<string, Record<HttpMethod, LooseOperation>>
type LooseInit = { params?: LooseOperation['parameters']; body?: unknown; headers?: Record<string, string | null> }

/** Every non-2xx answer becomes a PaymentsApiError (after the retries), so a call that resolves succeeded. */
const throwOnError: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await PaymentsApiError.fromResponse(response)
  },
}

function isPage<Item>(value: unknown): value is { data: readonly Item[] } {
  // The items' type is the document's: the SDK trusts the service's answers, as openapi-fetch does.
  return typeof value === 'object' && value !== null && 'data' in value && Array.isArray(value.data)
}

export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const baseFetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request))
  const headers: Record<string, string> = {
    ...options.headers,
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...(options.onBehalfOf ? { 'x-on-behalf-of': options.onBehalfOf } : {}),
  }
  const core = createClient<LoosePaths>({
    baseUrl: options.baseUrl,
    headers,
    credentials: options.credentials ?? (options.apiKey ? 'omit' : 'same-origin'),
    fetch: retryingFetch(baseFetch, retryPolicyOf(options.retry)),
  })
  core.use(throwOnError)

  const call = <M extends HttpMethod>(method: M): Call<M> => {
    const loose: HttpMethod = method
    const send = async (path: string, init?: LooseInit) => {
      const { data, response } = await core.request(loose, path, init)
      return { data, response }
    }
    // The generated types describe what the service answers for each path; openapi-fetch parses it.
    return send as unknown as Call<M>
  }

  return {
    GET: call('get'),
    POST: call('post'),
    PUT: call('put'),
    PATCH: call('patch'),
    DELETE: call('delete'),
    paginate<P extends ListPath>(path: P, listOptions?: ListOptions<P>) {
      const { query, path: pathParams, headers: pageHeaders, maxPages } = listOptions ?? {}
      const fetchPage = async (pageQuery: PageQuery) => {
        const { data } = await core.GET(path, {
          params: { query: pageQuery, ...(pathParams ? { path: pathParams } : {}) },
          ...(pageHeaders ? { headers: pageHeaders } : {}),
        })
        if (!isPage<ListItem<P>>(data)) throw new TypeError(`GET ${path} did not answer a list page`)
        return data
      }
      return paginateItems(fetchPage, { ...query }, maxPages === undefined ? {} : { maxPages })
    },
  }
}
