// What a credit's cause names, as the balance history and the balance webhooks show it: a sandbox
// fund-in (its cause is `fund-in:<reference>`, commands/sandbox/fundsSimulationRoutes.ts), a
// credit-line draw (the draw id), or a deposit (its id).
export const CREDIT_CAUSE_TYPES = ['DEPOSIT', 'FUND_IN', 'DRAW'] as const
export type CreditCauseType = (typeof CREDIT_CAUSE_TYPES)[number]

const FUND_IN_PREFIX = 'fund-in:'

export function creditCauseOf(cause: string, draw: boolean): { type: CreditCauseType; id: string } {
  if (draw) return { type: 'DRAW', id: cause }
  return cause.startsWith(FUND_IN_PREFIX) ? { type: 'FUND_IN', id: cause.slice(FUND_IN_PREFIX.length) } : { type: 'DEPOSIT', id: cause }
}
