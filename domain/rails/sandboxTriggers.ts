// The sandbox's deterministic outcomes, chosen by a magic source amount (major units, any
// currency): a developer can make any transfer fail, go to review, be returned or reversed, or
// run as a SWIFT payout without tracking. Amounts are compared as exact decimals, so "13.13",
// "13.130000" and "13.1300" all match, and "13.131" does not.
//
// | amount | trigger                   | what the sandbox does                                                  |
// |--------|---------------------------|------------------------------------------------------------------------|
// | 13.13  | FAIL_BEFORE_FUNDING       | the transfer fails before any funds are received (FAILED)              |
// | 31.31  | REVIEW_AFTER_FUNDING      | funds are received, then an operational problem holds it (IN_REVIEW)   |
// | 66.60  | RETURN_AFTER_COMPLETION   | completes, then the payout is returned (ACH: R01 Insufficient Funds)   |
// | 99.90  | REVERSAL_AFTER_COMPLETION | completes, then is reversed (REVERSED, the balance credited back)      |
// | 24.24  | SWIFT_UNTRACKED           | a SWIFT payout without tracking: auto-completes after 24 hours         |

export const SANDBOX_TRIGGERS = [
  'FAIL_BEFORE_FUNDING',
  'REVIEW_AFTER_FUNDING',
  'RETURN_AFTER_COMPLETION',
  'REVERSAL_AFTER_COMPLETION',
  'SWIFT_UNTRACKED',
] as const
export type SandboxTrigger = (typeof SANDBOX_TRIGGERS)[number]

/** Each trigger's amount in major units, written without trailing zeros (the canonical form compared). */
export const SANDBOX_TRIGGER_AMOUNTS: Readonly<Record<SandboxTrigger, string>> = {
  FAIL_BEFORE_FUNDING: '13.13',
  REVIEW_AFTER_FUNDING: '31.31',
  RETURN_AFTER_COMPLETION: '66.6',
  REVERSAL_AFTER_COMPLETION: '99.9',
  SWIFT_UNTRACKED: '24.24',
}

const BY_AMOUNT: ReadonlyMap<string, SandboxTrigger> = new Map(
  SANDBOX_TRIGGERS.map((trigger) => [SANDBOX_TRIGGER_AMOUNTS[trigger], trigger] as const),
)

const PLAIN_DECIMAL = /^(0|[1-9]\d{0,29})(?:\.(\d{1,30}))?$/

/** "66.600000" -> "66.6", "13" -> "13"; undefined for anything that is not a plain non-negative decimal. */
function canonicalDecimal(displayValue: string): string | undefined {
  const match = PLAIN_DECIMAL.exec(displayValue)
  if (!match) return undefined
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  return fraction === '' ? match[1] : `${match[1]}.${fraction}`
}

/** The sandbox outcome a source amount (its displayValue, major units) asks for, or null for a normal run. */
export function sandboxTrigger(displayValue: string): SandboxTrigger | null {
  const canonical = canonicalDecimal(displayValue)
  return (canonical !== undefined && BY_AMOUNT.get(canonical)) || null
}
