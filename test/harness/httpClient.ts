// What the HTTP helpers of the tests need of a client: app.inject through TestApp.request, or
// fetch against a real server process (fetchClient), behind one shape.
export type RequestOptions = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  url: string
  payload?: object
  headers?: Record<string, string>
  apiKey?: string
}

/** `json()` is typed as inject's is (what JSON.parse gives): tests read the fields they assert on. */
export type HttpResponse = { statusCode: number; body: string; json(): ReturnType<typeof JSON.parse> }

export type Client = { request(options: RequestOptions): Promise<HttpResponse> }

/** `client` acting as the organization of `apiKey`: every request carries that key. */
export const keyedClient = (client: Client, apiKey: string): Client => ({ request: (options) => client.request({ ...options, apiKey }) })

/** A client of a server at `baseUrl`, authenticated with `apiKey` unless a request names another. */
export function fetchClient(baseUrl: string, apiKey: string): Client {
  return {
    async request({ method, url, payload, headers, apiKey: key }) {
      const res = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${key ?? apiKey}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      })
      const body = await res.text()
      return { statusCode: res.status, body, json: () => JSON.parse(body) }
    },
  }
}
