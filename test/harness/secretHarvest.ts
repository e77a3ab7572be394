// The secrets a test run handled (API keys it created, whsec_ values it was shown, tax ids,
// document numbers and document contents it sent), so the service logs can be searched for them.
// Also finds anything shaped like a live key or signing secret, harvested or not.

/** Request body fields whose values must never reach a log. */
const SECRET_REQUEST_FIELDS = new Set(['taxIdentificationNumber', 'idNumber', 'content', 'apiKey', 'secret'])
/** Response body fields that carry a secret shown once. */
const SECRET_RESPONSE_FIELDS = new Set(['apiKey', 'secret', 'previousSecret'])

/** Key and signing-secret shapes (server: domain/organization/apiKeys.ts, webhook-endpoint/signingSecret.ts). */
const SECRET_SHAPES = [/sk_(?:sandbox|live)_(?:agent_)?[0-9A-Za-z]{32}/, /whsec_[A-Za-z0-9+/]{43}=/]

/**
 * Short or repetitive values would match ordinary log text by chance (a fuzzed "0000" inside a
 * timestamp): a harvested value counts only from 8 characters and 4 distinct ones, and never when
 * it is shaped like a resource id (a fuzzed tax id "cus_000..." is in every log line of its URL).
 */
export const MIN_SECRET_LENGTH = 8
const RESOURCE_ID = /^[a-z]+_[0-9a-z-]+$/
const distinctive = (value: string) => value.length >= MIN_SECRET_LENGTH && new Set(value).size >= 4 && !RESOURCE_ID.test(value)

/** Nesting beyond this is fuzz, not a secret-bearing body; the walk stops there. */
const MAX_WALK_DEPTH = 20

export type Leak = { kind: string; secret: string; line: string }

export type SecretHarvest = ReturnType<typeof createSecretHarvest>

export function createSecretHarvest() {
  const secrets = new Map<string, string>()

  const add = (kind: string, value: unknown) => {
    if (typeof value === 'string' && distinctive(value)) secrets.set(value, kind)
  }

  const walk = (value: unknown, fields: ReadonlySet<string>, depth: number) => {
    if (depth > MAX_WALK_DEPTH || value === null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      for (const item of value) walk(item, fields, depth + 1)
      return
    }
    for (const [key, item] of Object.entries(value)) {
      if (fields.has(key) && typeof item === 'string') {
        add(key, item)
        // A document's content is also searched for as the text it encodes, when it is text.
        if (key === 'content') {
          const decoded = Buffer.from(item, 'base64').toString('utf8')
          if (/^[\x20-\x7e\n\r\t]+$/.test(decoded)) add('content (decoded)', decoded.trim())
        }
      } else walk(item, fields, depth + 1)
    }
  }

  const parsed = (text: string): unknown => {
    try {
      return JSON.parse(text)
    } catch {
      return undefined
    }
  }

  return {
    add,
    /**
     * A request and its answer. The request's secret fields count when it was accepted (stored);
     * a refused request's fuzzed values would make chance matches. The answer's secrets always count.
     */
    fromExchange(payload: unknown, statusCode: number, responseBody: string): void {
      if (statusCode >= 200 && statusCode < 300) this.fromRequest(payload)
      this.fromResponse(responseBody)
    },
    /** A request's JSON body: its secret fields. */
    fromRequest(payload: unknown): void {
      const body = typeof payload === 'string' ? parsed(payload) : Buffer.isBuffer(payload) ? parsed(payload.toString('utf8')) : payload
      walk(body, SECRET_REQUEST_FIELDS, 0)
    },
    /** A response the test read: shown secrets, and anything shaped like a key or signing secret. */
    fromResponse(body: string): void {
      for (const shape of SECRET_SHAPES) for (const match of body.matchAll(new RegExp(shape, 'g'))) add('secret in a response', match[0])
      walk(parsed(body), SECRET_RESPONSE_FIELDS, 0)
    },
    size: () => secrets.size,
    kinds: (): Set<string> => new Set(secrets.values()),
    /** Lines holding a harvested secret, or a key or signing secret whatever its origin. */
    leaksIn(lines: readonly string[]): Leak[] {
      const leaks: Leak[] = []
      for (const line of lines) {
        for (const shape of SECRET_SHAPES) {
          const match = shape.exec(line)
          if (match) leaks.push({ kind: 'key or signing secret', secret: match[0], line })
        }
      }
      const all = lines.join('\n')
      const shaped = new Set(leaks.map((l) => l.secret))
      for (const [secret, kind] of secrets) {
        if (shaped.has(secret)) continue
        let at = all.indexOf(secret)
        while (at !== -1 && leaks.length < 100) {
          const start = all.lastIndexOf('\n', at) + 1
          const end = all.indexOf('\n', at)
          leaks.push({ kind, secret, line: all.slice(start, end === -1 ? undefined : end) })
          at = all.indexOf(secret, end === -1 ? all.length : end)
        }
      }
      return leaks
    },
  }
}

/** A leak report short enough to read, with the secret masked. */
export function describeLeaks(leaks: readonly Leak[]): string {
  return leaks
    .slice(0, 10)
    .map((l) => `${l.kind} ${l.secret.slice(0, 4)}…: ${l.line.replaceAll(l.secret, '<SECRET>').slice(0, 400)}`)
    .join('\n')
}
