// Who the sandbox says sent a deposit (spec: the fixed-route simulation's rule 2, also used by a
// transfer's simulated deposit): the remitter given, {} for none, or by default on wire, ACH and
// SWIFT a sandbox remitter (ACH reports only the originator's name and routing number); a crypto
// deposit names none unless one is given.
import type { Originator } from '../transfer/events.js'

export const SANDBOX_REMITTER = {
  name: 'Sandbox Remitter LLC',
  bankName: 'Sandbox Sending Bank',
  routingNumber: '021000021',
  accountNumber: '000123456789',
  swiftBic: 'CHASUS33XXX',
  bankCountry: 'US',
} as const

export type OriginatorInput = Partial<Record<keyof Originator, string>>

const NONE: Originator = { name: null, bankName: null, routingNumber: null, accountNumber: null, swiftBic: null, bankCountry: null }

/** The remitter given, with its missing fields null; `{}` is none. */
export const givenOriginator = (given: OriginatorInput): Originator | null =>
  Object.keys(given).length === 0 ? null : { ...NONE, ...given }

/** The sandbox's default remitter on a rail: name and routing number on ACH, every field on wire and SWIFT. */
export function defaultRemitter(rail: string): Originator {
  if (rail === 'ACH' || rail === 'ACH_SAME_DAY')
    return { ...NONE, name: SANDBOX_REMITTER.name, routingNumber: SANDBOX_REMITTER.routingNumber }
  return { ...SANDBOX_REMITTER }
}

export function sandboxOriginator(rail: string, given: OriginatorInput | undefined, crypto: boolean): Originator | null {
  if (given !== undefined) return givenOriginator(given)
  return crypto ? null : defaultRemitter(rail)
}
