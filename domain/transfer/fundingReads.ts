// What fund-from-balance reads besides the event streams: the port the server wires to the accounts
// read model (read-api/accounts/balanceSources.ts). A customer may hold several balance accounts of
// one currency; the route tries them in this order.
export type TransferFundingReads = {
  /** The customer's ACTIVE balance accounts that can fund transfers in `currency`, oldest first (at most a few). */
  balanceSources(organizationId: string, customerId: string, currency: string): Promise<string[]>
}
