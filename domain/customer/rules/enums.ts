// The spec's enumerations, exactly as listed, as literal tuples for `z.enum(...)`.

export const EMPLOYMENT_STATUSES = ['EMPLOYED', 'SELF_EMPLOYED', 'UNEMPLOYED', 'STUDENT', 'RETIRED', 'HOMEMAKER'] as const
export type EmploymentStatus = (typeof EMPLOYMENT_STATUSES)[number]

export const ACCOUNT_PURPOSES = ['PERSONAL_EXPENSES', 'BUSINESS_OPERATIONS', 'INVESTMENT', 'SAVINGS', 'OTHER'] as const
export type AccountPurpose = (typeof ACCOUNT_PURPOSES)[number]

export const SOURCES_OF_FUNDS = [
  'COMPANY_FUNDS',
  'ECOMMERCE_RESELLER',
  'GAMBLING_PROCEEDS',
  'GIFTS',
  'GOVERNMENT_BENEFITS',
  'INHERITANCE',
  'INVESTMENTS_LOANS',
  'PENSION_RETIREMENT',
  'SALARY',
  'SALE_OF_ASSETS_REAL_ESTATE',
  'SAVINGS',
  'SOMEONE_ELSES_FUNDS',
] as const
export type SourceOfFunds = (typeof SOURCES_OF_FUNDS)[number]

export const ASSOCIATED_ROLES = ['CEO', 'CFO', 'COO', 'PRESIDENT', 'GENERAL_COUNSEL', 'MANAGING_MEMBER', 'TREASURER', 'OTHER'] as const
export type AssociatedRole = (typeof ASSOCIATED_ROLES)[number]
