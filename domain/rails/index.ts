// Placeholder until the rails engine lands (issue 13): what the transfer slice uses from it.
import type { PaymentRail } from '../shared/paymentRails.js'

const RAIL_CURRENCIES: Partial<Record<PaymentRail, readonly string[]>> = {
  ACH: ['USD'],
  ACH_SAME_DAY: ['USD'],
  WIRE: ['USD'],
  FEDWIRE: ['USD'],
  RTP: ['USD'],
  FED_NOW: ['USD'],
  SWIFT: ['USD', 'EUR', 'GBP', 'MXN'],
  SEPA: ['EUR'],
  SEPA_INSTANT: ['EUR'],
  FASTER_PAYMENTS: ['GBP'],
  SPEI: ['MXN'],
  PIX: ['BRL'],
}

export const railCarries = (rail: PaymentRail, currency: string): boolean => RAIL_CURRENCIES[rail]?.includes(currency) ?? false

export const SWIFT_UNTRACKED_REMARK = 'No SWIFT tracking was received within 24 hours: the transfer was completed as an assumed settlement'

export const SWIFT_LIMITS = { untrackedAutoCompleteAfterMs: 24 * 60 * 60 * 1000 } as const

export function railSchedule(rail: string, now: Date): { cutoffTimezone: string | null; nextCutoffAt: string | null; estimatedSettlementAt: string } {
  return { cutoffTimezone: rail === 'BALANCE' ? null : 'America/New_York', nextCutoffAt: null, estimatedSettlementAt: new Date(now.getTime() + 86_400_000).toISOString() }
}

export const sandboxStepDelayMs = (_rail: string, overrides?: Record<string, { stepMs: number }>): number => overrides?.[_rail]?.stepMs ?? 1000

export function sandboxTrigger(displayValue: string): string | null {
  const value = displayValue.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')
  const table: Record<string, string> = {
    '13.13': 'FAIL_BEFORE_FUNDING',
    '31.31': 'REVIEW_AFTER_FUNDING',
    '66.6': 'RETURN_AFTER_COMPLETION',
    '99.9': 'REVERSAL_AFTER_COMPLETION',
    '24.24': 'SWIFT_UNTRACKED',
  }
  return table[value] ?? null
}

const hex = (n: number) => [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('')
export const uetr = (): string => crypto.randomUUID()
export const imad = (date: Date): string => `${date.toISOString().slice(0, 10).replaceAll('-', '')}QMGFT015${String(Date.now() % 1e6).padStart(6, '0')}`
export const omad = (date: Date): string => `${imad(date)}${date.toISOString().slice(11, 16).replace(':', '')}FT03`
export const achTraceNumber = (): string => `02100002${String(Date.now() % 1e7).padStart(7, '0')}`
export const txHash = (chain: string): string => (chain === 'TRON' || chain === 'BITCOIN' ? hex(32) : `0x${hex(32)}`)
export function swiftRouting(input: { senderBic: string; receiverBic: string; now: Date }) {
  return {
    source: 'SANDBOX',
    senderBic: input.senderBic,
    receiverBic: input.receiverBic,
    checkedAt: input.now.toISOString(),
    steps: [
      { label: 'Ordering institution', bic: input.senderBic, bankName: 'Sandbox Bank', status: 'COMPLETED' },
      { label: 'Beneficiary institution', bic: input.receiverBic, bankName: 'Receiving Bank', status: 'PENDING' },
    ],
  }
}
