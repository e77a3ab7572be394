// Helpers of the console tests: sign in through POST /console/session, read the Set-Cookie it
// answers, and send requests carrying that cookie (and no API key), as a browser would.
import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from '../harness/testApp.js'

export const SESSION_COOKIE = 'console_session'
/** What a browser sends on a same-origin fetch from the console (app.inject's Host is localhost:80). */
export const SAME_ORIGIN = { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' } as const

export type SetCookie = { value: string; attributes: string[] }

/** The session cookie a reply sets, with its attributes (lower case), or undefined. */
export function sessionCookieOf(reply: LightMyRequestResponse, name: string = SESSION_COOKIE): SetCookie | undefined {
  const header = reply.headers['set-cookie']
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
  for (const line of lines) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim())
    const at = pair!.indexOf('=')
    if (pair!.slice(0, at) !== name) continue
    return { value: decodeURIComponent(pair!.slice(at + 1)), attributes: attributes.map((a) => a.toLowerCase()) }
  }
  return undefined
}

export async function signIn(h: TestApp, apiKey: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const reply = await h.request({ method: 'POST', url: '/console/session', payload: { apiKey }, headers, apiKey: null })
  const cookie = sessionCookieOf(reply)
  if (cookie?.value) h.secrets.add('console session token', cookie.value)
  return reply
}

/** Signs in and answers the session token (fails the caller on a refusal). */
export async function tokenFor(h: TestApp, apiKey: string): Promise<string> {
  const reply = await signIn(h, apiKey)
  const cookie = sessionCookieOf(reply)
  if (reply.statusCode !== 201 || !cookie) throw new Error(`sign-in: ${reply.statusCode} ${reply.body}`)
  return cookie.value
}

/** A request with the session cookie and no API key; writes add the same-origin headers unless `headers` says otherwise. */
export function byCookie(
  h: TestApp,
  token: string,
  request: { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; url: string; payload?: object; headers?: Record<string, string> },
): Promise<LightMyRequestResponse> {
  const { headers = request.method === 'GET' ? {} : SAME_ORIGIN, ...rest } = request
  return h.request({ ...rest, apiKey: null, headers: { ...headers, cookie: `${SESSION_COOKIE}=${token}` } })
}
