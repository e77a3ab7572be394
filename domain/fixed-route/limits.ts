// The bounds of a fixed route: how much a caller may configure on one and how long its texts may be.
export const FIXED_ROUTE_LIMITS = {
  maxSourceRails: 3,
  maxAllowedSenderBanks: 20,
  maxDocumentIds: 20,
  nameMaxLength: 200,
  idMaxLength: 64,
  referenceMaxLength: 80,
  /** The payer's payment reference a deposit carries (remittance text such as an invoice's INV-... reference). */
  paymentReferenceMaxLength: 64,
  /** Routes one customer may hold (each is a dedicated account number or address). */
  maxRoutesPerCustomer: 100,
  /** Deposits a route remembers for idempotency (by reference and amount); older ones are forgotten. */
  maxRememberedDeposits: 10_000,
} as const
