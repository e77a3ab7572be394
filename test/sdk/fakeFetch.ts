// A fetch for the SDK's unit tests: records every request it is sent (method, URL, headers, body) and
// answers what the test's responder says: a Response, or a thrown error standing for a dropped connection.
export type SentRequest = { method: string; url: URL; headers: Headers; body: string; signal: AbortSignal; credentials: RequestCredentials }
export type Responder = (request: SentRequest, nth: number) => Response | Promise<Response>

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

export function fakeFetch(responder: Responder) {
  const sent: SentRequest[] = []
  const fetch = async (request: Request): Promise<Response> => {
    const recorded = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: await request.text(),
      signal: request.signal,
      credentials: request.credentials,
    }
    sent.push(recorded)
    return responder(recorded, sent.length - 1)
  }
  return { fetch, sent }
}

/** A connection that never answers: it rejects only when the request is aborted (a timeout, the caller). */
export const hangs = (request: SentRequest): Promise<Response> =>
  new Promise((_resolve, reject) => {
    if (request.signal.aborted) reject(request.signal.reason)
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true })
  })
