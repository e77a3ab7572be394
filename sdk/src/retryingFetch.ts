// The fetch under every SDK call: stamps the Idempotency-Key on writes, bounds each attempt by a timeout,
// and retries, a bounded number of times, what is safe to retry: no answer at all (a dropped connection,
// a timeout), 429 or 503 (waiting their Retry-After), and the 409 of a key whose request is still running.
// Every retry sends the same Idempotency-Key.
import { PaymentsNetworkError, retryAfterSecondsOf } from './errors.js'
import { withIdempotencyKey } from './idempotency.js'

export type RetryPolicy = {
  /** Retries after the first attempt (0: none). */
  maxRetries: number
  /** Each attempt's bound, from sending to the last byte of the answer. */
  timeoutMs: number
  /** Backoff before retry n (no Retry-After): between half and all of min(maxBackoffMs, baseBackoffMs * 2^(n-1)). */
  baseBackoffMs: number
  maxBackoffMs: number
  /** A Retry-After longer than this is not waited for: the 429 or 503 is the answer. */
  maxRetryAfterMs: number
}

/** 30 s: the service's own request timeout. Three attempts in all. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  timeoutMs: 30_000,
  baseBackoffMs: 300,
  maxBackoffMs: 5_000,
  maxRetryAfterMs: 30_000,
}

/** What a caller may ask for at most: a retry loop and a wait both end. */
export const RETRY_LIMITS = { maxRetries: 10, maxTimeoutMs: 300_000, maxBackoffMs: 60_000, maxRetryAfterMs: 300_000 } as const

/** The statuses that say "try again later" without the request having been acted on. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503])
/** The 409 of a key whose first request is still running (a retry after a timeout often meets it): "retry shortly". */
const IN_PROGRESS_CODE = 'idempotency_request_in_progress'

async function isRetryable(response: Response): Promise<boolean> {
  if (RETRYABLE_STATUSES.has(response.status)) return true
  if (response.status !== 409) return false
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined)
  return typeof body === 'object' && body !== null && 'code' in body && body.code === IN_PROGRESS_CODE
}

/** The policy with the caller's overrides, each checked against its limit. */
export function retryPolicyOf(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...overrides }
  const within = (name: keyof RetryPolicy, min: number, max: number) => {
    const value = policy[name]
    if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}`)
  }
  within('maxRetries', 0, RETRY_LIMITS.maxRetries)
  within('timeoutMs', 1, RETRY_LIMITS.maxTimeoutMs)
  within('baseBackoffMs', 0, RETRY_LIMITS.maxBackoffMs)
  within('maxBackoffMs', 0, RETRY_LIMITS.maxBackoffMs)
  within('maxRetryAfterMs', 0, RETRY_LIMITS.maxRetryAfterMs)
  return policy
}

export type Fetch = (request: Request) => Promise<Response>

export type RetryDeps = {
  /** Waits `ms`, or rejects when `signal` aborts first (tests pass one that records and returns at once). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  random?: () => number
  newKey?: () => string
}

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Aborts when any of the signals does (AbortSignal.any where the runtime has it: Node 20.3+, current browsers). */
function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals)
  const controller = new AbortController()
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true })
  }
  return controller.signal
}

export function retryingFetch(baseFetch: Fetch, policy: RetryPolicy = DEFAULT_RETRY_POLICY, deps: RetryDeps = {}): Fetch {
  const sleep = deps.sleep ?? sleepFor
  const random = deps.random ?? Math.random
  const backoffMs = (retry: number) => {
    const ceiling = Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (retry - 1))
    return Math.round(ceiling / 2 + (random() * ceiling) / 2)
  }
  return async (input) => {
    const template = withIdempotencyKey(input, deps.newKey)
    const callerSignal = input.signal
    for (let attempt = 1; ; attempt++) {
      const last = attempt > policy.maxRetries
      // The template stays unread, so each attempt sends the same body.
      const request = last ? template : template.clone()
      const timeout = AbortSignal.timeout(policy.timeoutMs)
      let response: Response
      try {
        response = await baseFetch(new Request(request, { signal: anySignal([callerSignal, timeout]) }))
      } catch (error) {
        if (callerSignal.aborted) throw error
        const kind = timeout.aborted ? 'timeout' : 'network'
        if (last) throw new PaymentsNetworkError(kind, attempt, { cause: error })
        await sleep(backoffMs(attempt), callerSignal)
        continue
      }
      if (last || !(await isRetryable(response))) return response
      const retryAfterSeconds = retryAfterSecondsOf(response.headers.get('retry-after'))
      const waitMs = retryAfterSeconds === undefined ? backoffMs(attempt) : retryAfterSeconds * 1_000
      if (waitMs > policy.maxRetryAfterMs) return response
      // Frees the connection of the answer not read.
      await response.body?.cancel().catch(() => undefined)
      await sleep(waitMs, callerSignal)
    }
  }
}
