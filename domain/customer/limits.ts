// Named limits of the customer domain: every string, array and count has a maximum.
export const CUSTOMER_LIMITS = {
  nameMaxLength: 100,
  customerNameMaxLength: 201,
  businessNameMaxLength: 200,
  phoneMaxLength: 16,
  shortTextMaxLength: 100,
  longTextMaxLength: 1_000,
  taxIdMaxLength: 64,
  ipAddressMaxLength: 45,
  urlMaxLength: 2_048,
  documentIdMaxLength: 64,
  supportingDocumentsMax: 20,
  proofOfSourceOfFundsMax: 10,
  /** Associated persons and businesses of one customer, together. */
  associatedEntitiesMax: 50,
  /** Levels of nested ownership below the customer. */
  ownershipMaxDepth: 10,
  reviewReasonsMax: 10,
  reviewReasonMaxLength: 200,
  /** Declared estimate, not money moved: a bound keeps it sane (see decisions). */
  expectedMonthlyPaymentsUsdMax: 1_000_000_000_000,
  /** Sessions kept per customer; creating one past it is refused. */
  verificationSessionsMax: 200,
  /** Proof of address must be dated within this many days (spec: Limits). */
  proofOfAddressMaxAgeDays: 90,
  /** Effective ownership at which an individual must be verified (spec: Limits). */
  controllingOwnershipPercent: 25,
  /** A government id expiring this soon is a review warning, not a refusal. */
  governmentIdExpiryWarningDays: 30,
  /** Why a customer's data was erased, as the audit event keeps it (the data key's shred reason holds as much). */
  erasureReasonMaxLength: 500,
  erasedByMaxLength: 200,
} as const
