// Nacha return reason codes the sandbox uses when it returns an ACH entry after completion, with
// their Nacha titles for the transfer's reason text.

export const ACH_RETURN_REASONS = {
  R01: 'Insufficient Funds',
  R02: 'Account Closed',
  R03: 'No Account/Unable to Locate Account',
  R04: 'Invalid Account Number Structure',
  R06: 'Returned per ODFI’s Request',
  R07: 'Authorization Revoked by Customer',
  R08: 'Payment Stopped',
  R09: 'Uncollected Funds',
  R10: 'Customer Advises Originator is Not Known to Receiver and/or Originator is Not Authorized by Receiver to Debit Receiver’s Account',
  R16: 'Account Frozen/Entry Returned per OFAC Instruction',
  R20: 'Non-Transaction Account',
  R29: 'Corporate Customer Advises Not Authorized',
} as const
export type AchReturnCode = keyof typeof ACH_RETURN_REASONS

/** The code a sandbox return after completion carries. */
export const SANDBOX_ACH_RETURN_CODE: AchReturnCode = 'R01'

/** "R01 Insufficient Funds": the code and its title, for a transfer's reason text. */
export const achReturnReasonText = (code: AchReturnCode): string => `${code} ${ACH_RETURN_REASONS[code]}`
