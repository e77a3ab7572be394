// What a deposit into a fixed route is, decided from the route's configuration (spec: the sandbox
// simulate-deposit's rules): the rail it came on, the remitter recorded, and whether it is held
// instead of swept:
//   rail: a fiat route takes the rail asked when it lists it (else refused), by default its stored
//     rail (ACH when it takes ACH and wire); a crypto route takes deposits on its chain only;
//   remitter (rule 2): the one given ({} for none); else, on a route without allowedSenderBanks, the
//     sandbox's default remitter for a fiat rail and none for crypto; else the sender bank alone;
//   held (rules 3 and 4, fail closed): a route listing allowedSenderBanks holds a deposit with no
//     sender-bank data (unattributed) or from a bank outside the list; a deposit under the route's
//     minimumAmount is held too. A held deposit is recorded (its sweep transfer is IN_REVIEW, with
//     the reason) and swept only once an operator clears it, or refunded.
import { type ErrorDetail, invalid } from '../errors.js'
import { type OriginatorInput, defaultRemitter, givenOriginator } from '../rails/sandboxRemitter.js'
import type { Originator } from '../transfer/events.js'
import type { FixedRouteConfig, SenderBank } from './routeConfig.js'

/** What makes two deposits the same (spec rule 1): the reference and the amount. Also the sweep's reference id. */
export const depositKey = (reference: string, amountMinor: string): string => `${reference}:${amountMinor}`

export type DepositHold = { code: 'deposit_unattributed' | 'sender_bank_not_allowed' | 'below_minimum_amount'; reason: string }

export type SenderBankInput = { bankName?: string | undefined; routingNumber?: string | undefined; swiftBic?: string | undefined }

/** The rail a deposit came on, or why the route refuses it (422 rail_not_accepted). */
export function depositRail(route: FixedRouteConfig, asked: string | undefined): { rail: string } | { refused: ErrorDetail } {
  if (route.chain !== null) return { rail: route.chain }
  const rails = route.sourceRails
  if (asked === undefined) return { rail: rails.includes('ACH') ? 'ACH' : rails[0]! }
  if ((rails as readonly string[]).includes(asked)) return { rail: asked }
  return { refused: { field: 'rail', message: `the route takes deposits on ${rails.join(', ')}`, value: asked } }
}

export const railRefusal = (detail: ErrorDetail) =>
  invalid('rail_not_accepted', `The fixed route does not take deposits on ${String(detail.value)}`, [detail])

export function depositOriginator(
  route: FixedRouteConfig,
  rail: string,
  given: OriginatorInput | undefined,
  senderBank: SenderBankInput | undefined,
): Originator | null {
  if (given !== undefined) return givenOriginator(given)
  if (route.allowedSenderBanks.length === 0) return route.chain !== null ? null : defaultRemitter(rail)
  if (senderBank === undefined) return null
  return givenOriginator({ ...senderBank })
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  a !== null && a !== undefined && b !== null && b !== undefined && a.trim().toUpperCase() === b.trim().toUpperCase()

/** An allowed bank matches when every field it names equals the sender's (a BIC by its first 8 characters). */
function matches(allowed: SenderBank, sender: SenderBankInput): boolean {
  if (allowed.routingNumber !== null && !same(allowed.routingNumber, sender.routingNumber)) return false
  if (allowed.swiftBic !== null && !same(allowed.swiftBic.slice(0, 8), sender.swiftBic?.slice(0, 8))) return false
  if (allowed.bankName !== null && !same(allowed.bankName, sender.bankName)) return false
  return true
}

export function depositHold(
  route: FixedRouteConfig,
  deposit: { amountMinor: bigint; displayAmount: string; senderBank: SenderBankInput | undefined; originator: Originator | null },
): DepositHold | null {
  if (route.allowedSenderBanks.length > 0) {
    const o = deposit.originator
    const sender = deposit.senderBank ?? {
      bankName: o?.bankName ?? undefined,
      routingNumber: o?.routingNumber ?? undefined,
      swiftBic: o?.swiftBic ?? undefined,
    }
    const known = [sender.bankName, sender.routingNumber, sender.swiftBic].some((v) => v !== undefined && v !== null && v !== '')
    if (!known)
      return {
        code: 'deposit_unattributed',
        reason: 'The deposit carries no sender-bank data and the route accepts only listed sender banks: held, not swept (fail closed)',
      }
    if (!route.allowedSenderBanks.some((allowed) => matches(allowed, sender)))
      return {
        code: 'sender_bank_not_allowed',
        reason: "The deposit's sender bank is not one of the route's allowedSenderBanks: held, not swept",
      }
  }
  if (route.minimumAmountMinor !== null && deposit.amountMinor < BigInt(route.minimumAmountMinor))
    return {
      code: 'below_minimum_amount',
      reason: `The deposit of ${deposit.displayAmount} is below the route's minimumAmount: held, not swept`,
    }
  return null
}
