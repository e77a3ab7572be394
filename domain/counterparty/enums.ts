// Enumerations of counterparties, spelled as the spec lists them (the transfer's `counterparty` expand shape).
export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const
export type BeneficiaryType = (typeof BENEFICIARY_TYPES)[number]
