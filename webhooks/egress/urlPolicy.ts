// What an endpoint URL alone says about egress, before any DNS: the scheme the environment
// allows, no credentials, and the class of a literal address, of a loopback-only name or of a
// private-use name. The
// WHATWG parser has already turned `127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1` and
// full-width digits into `127.0.0.1`, and `[::ffff:127.0.0.1]` into `[::ffff:7f00:1]`, so the
// hostname it gives is what a connection would reach. Pure: creation and delivery both use it.
import { isIP } from 'node:net'
import type { Environment } from '../../domain/shared/environment.js'
import { type AddressClass, isAllowedAddress } from './addressClass.js'

/** `unresolvable`: the name has no address (creation and update in production only; a delivery fails its lookup instead). */
export type UrlRefusalKind = 'invalid' | 'scheme' | 'credentials' | 'address' | 'unresolvable'

/** `detail` names the address or name refused: for the server log, never for an attempt or a response. */
export type UrlRefusal = { kind: UrlRefusalKind; detail: string }

export type UrlShape =
  { ok: true; url: URL; host: string; literal: { address: string; family: 4 | 6 } | undefined } | { ok: false; refusal: UrlRefusal }

/** RFC 6761: `localhost` and every name under it mean this machine, whatever DNS says. */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '')
  return name === 'localhost' || name.endsWith('.localhost')
}

/**
 * Names no public DNS delegates, so a production webhook can never live there, while inside a
 * network they reach its own machines (`metadata.google.internal`, `printer.local`): RFC 6762's
 * `.local` and the private-use names of its appendix G, RFC 8375's `home.arpa`, and `.internal`,
 * which ICANN reserved for private use in 2024.
 */
const PRIVATE_USE_SUFFIXES = ['local', 'internal', 'home.arpa', 'intranet', 'private', 'corp', 'home', 'lan'] as const

/** Why a name can only reach a private network, or undefined. A single label (`metadata`) is completed by the resolver's search domains. */
export function privateUseName(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.+$/, '')
  if (!name.includes('.')) return 'a single-label name'
  const suffix = PRIVATE_USE_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`))
  return suffix ? `a private-use name (.${suffix})` : undefined
}

export function allowsScheme(protocol: string, environment: Environment): boolean {
  return protocol === 'https:' || (environment === 'sandbox' && protocol === 'http:')
}

/** Refusal of an address the URL or a DNS answer names, or undefined when the environment allows it. */
export function refuseAddress(host: string, address: string, environment: Environment): UrlRefusal | undefined {
  const verdict = isAllowedAddress(address, environment)
  return verdict.allowed ? undefined : addressRefusal(host, address, verdict.kind, environment)
}

function addressRefusal(host: string, address: string, kind: AddressClass, environment: Environment): UrlRefusal {
  const allowed = environment === 'production' ? 'public addresses only' : 'public or loopback addresses only'
  const what = host === address ? address : `${host} resolves to ${address}`
  return { kind: 'address', detail: `${what} (${kind}); ${environment} calls ${allowed}` }
}

export function checkUrlShape(rawUrl: string, environment: Environment): UrlShape {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    return { ok: false, refusal: { kind: 'invalid', detail: 'not a valid URL' } }
  }
  if (!allowsScheme(url.protocol, environment)) {
    return { ok: false, refusal: { kind: 'scheme', detail: `${url.protocol} URLs are not called in ${environment}` } }
  }
  if (url.username || url.password) return { ok: false, refusal: { kind: 'credentials', detail: 'URLs with credentials are not called' } }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const family = isIP(host)
  if (family !== 0) {
    const refusal = refuseAddress(host, host, environment)
    return refusal ? { ok: false, refusal } : { ok: true, url, host, literal: { address: host, family: family === 6 ? 6 : 4 } }
  }
  if (isLoopbackName(host) && environment !== 'sandbox') {
    return { ok: false, refusal: addressRefusal(host, host, 'loopback', environment) }
  }
  // Sandbox receivers may sit on a local network name; production calls public names only.
  const privateName = environment === 'sandbox' ? undefined : privateUseName(host)
  if (privateName)
    return { ok: false, refusal: { kind: 'address', detail: `${host} is ${privateName}; ${environment} calls public names only` } }
  return { ok: true, url, host, literal: undefined }
}
