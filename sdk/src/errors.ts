// The SDK's errors: PaymentsApiError for a non-2xx answer (the service's one error body), PaymentsNetworkError
// when no answer came (connection failure or timeout, after the retries), PaymentsPaginationError, WebhookVerificationError.

/** One entry of an error body's `details`: which field, what is wrong, and the value when the service echoes it. */
export type ErrorDetail = { field: string; message: string; value?: unknown }

/**
 * The service's one error body. 401 bodies have no `code`. Some errors add fields (`hint`, `limits`,
 * `requested`, `denial`): they are kept whole in `PaymentsApiError.body`.
 */
export type ErrorBody = {
  error: string
  code?: string
  message: string
  statusCode: number
  details?: ErrorDetail[]
  requestId: string
  [extra: string]: unknown
}

/** How much of a body that is not the error body (a proxy's HTML page) is kept as the message. */
const MAX_FOREIGN_MESSAGE_CHARS = 500

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function detailsOf(value: unknown): ErrorDetail[] | undefined {
  if (!Array.isArray(value)) return undefined
  return value.filter(isRecord).map((d) => ({
    field: typeof d.field === 'string' ? d.field : '',
    message: typeof d.message === 'string' ? d.message : '',
    ...('value' in d ? { value: d.value } : {}),
  }))
}

/** The error body when `parsed` is one, else undefined (a gateway's page, an empty body). */
export function errorBodyOf(parsed: unknown): ErrorBody | undefined {
  if (!isRecord(parsed) || typeof parsed.message !== 'string' || typeof parsed.error !== 'string') return undefined
  const details = detailsOf(parsed.details)
  return {
    ...parsed,
    error: parsed.error,
    message: parsed.message,
    statusCode: typeof parsed.statusCode === 'number' ? parsed.statusCode : 0,
    requestId: typeof parsed.requestId === 'string' ? parsed.requestId : '',
    ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}),
    ...(details ? { details } : {}),
  }
}

/** A non-2xx answer of the service. */
export class PaymentsApiError extends Error {
  override readonly name = 'PaymentsApiError'
  /** The HTTP status. */
  readonly status: number
  /** Machine-readable, snake_case (`idempotency_key_reused`); undefined on 401 and on bodies that are not the service's. */
  readonly code: string | undefined
  readonly details: ErrorDetail[]
  /** The body's requestId, else the X-Request-Id header: quote it to support. */
  readonly requestId: string | undefined
  /** The whole error body, when the answer carried one. */
  readonly body: ErrorBody | undefined
  /** Seconds the service asked to wait (Retry-After on 429 and 503), when it did. */
  readonly retryAfterSeconds: number | undefined

  constructor(init: { status: number; message: string; body?: ErrorBody; requestId?: string; retryAfterSeconds?: number }) {
    super(init.message)
    this.status = init.status
    this.body = init.body
    this.code = init.body?.code
    this.details = init.body?.details ?? []
    this.requestId = init.body?.requestId || init.requestId
    this.retryAfterSeconds = init.retryAfterSeconds
  }

  /** Reads the answer's body (once) into the error. */
  static async fromResponse(response: Response): Promise<PaymentsApiError> {
    const text = await response.text().catch(() => '')
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    const body = errorBodyOf(parsed)
    const requestId = response.headers.get('x-request-id') ?? undefined
    const retryAfterSeconds = retryAfterSecondsOf(response.headers.get('retry-after'))
    const message = body?.message ?? (text.slice(0, MAX_FOREIGN_MESSAGE_CHARS) || `HTTP ${response.status}`)
    return new PaymentsApiError({
      status: response.status,
      message,
      ...(body ? { body } : {}),
      ...(requestId ? { requestId } : {}),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    })
  }
}

/** Retry-After as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSecondsOf(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim())
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1_000))
}

/** No answer came: the connection failed, or every attempt timed out (`kind`), after `attempts` tries. */
export class PaymentsNetworkError extends Error {
  override readonly name = 'PaymentsNetworkError'
  constructor(
    readonly kind: 'network' | 'timeout',
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(
      kind === 'timeout' ? `no answer within the timeout (${attempts} attempt(s))` : `the request failed (${attempts} attempt(s))`,
      options,
    )
  }
}

/** A list walk stopped: more pages than its bound, a page linking back to one already read, or an answer that is no page. */
export class PaymentsPaginationError extends Error {
  override readonly name = 'PaymentsPaginationError'
  constructor(
    readonly reason: 'max_pages_reached' | 'page_loop' | 'not_a_page',
    message: string,
  ) {
    super(message)
  }
}

/** Why a webhook delivery was refused: do not act on it (answer 400, say, and let the sender retry). */
export type WebhookVerificationFailure =
  | 'invalid_secret'
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_signature'
  | 'invalid_payload'

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message)
  }
}
