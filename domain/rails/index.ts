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
