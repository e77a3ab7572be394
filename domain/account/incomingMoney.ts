// What is on its way to an account, as closing it must know (issue 24: closing respects what is in
// flight): transfers not yet final whose destination it is (sweeps of fixed routes included), OPEN
// invoices that pay into it, and
// whether it is the organization's credit line payout treasury (draws are paid to it). The port the
// server wires to the read models (read-api/accounts/incomingMoney.ts); read at the close, so a close
// that races a credit anyway is the transfer workflow's to hold (suspense), not lost.
export type IncomingMoney = {
  /** Transfers to the account that are not COMPLETED, FAILED, CANCELLED or REVERSED (at most a few counted). */
  transfersInFlight: number
  /** It is the payout treasury of the organization's credit line. */
  payoutTreasury: boolean
  /** OPEN invoices paying into it (issue 28: a payer's deposit may arrive any time; at most a few counted). */
  openInvoices?: number
}

export type IncomingMoneyReads = {
  incomingTo(organizationId: string, accountId: string): Promise<IncomingMoney>
}

/** Transfer statuses with money still to arrive at their destination. */
export const INCOMING_STATUSES = ['DRAFT', 'PENDING_AUTHORIZATION', 'PENDING', 'PROCESSING', 'IN_REVIEW'] as const
