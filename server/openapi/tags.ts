// The OpenAPI document's tags, each with its description: the groups an SDK or a viewer sorts the
// operations into. A route's tag must be one of these (test/server/openapi.e2e.test.ts).
export const OPENAPI_TAGS = [
  { name: 'Customers', description: 'Individual and business customers: onboarding, verification, associated persons and businesses.' },
  { name: 'Documents', description: 'Identity and business documents uploaded for verification (PDF, JPEG, PNG).' },
  { name: 'Terms', description: 'Terms-of-service agreements a customer accepts before onboarding.' },
  { name: 'Accounts', description: 'Balance accounts, stablecoin accounts, external bank accounts and wallets of every kind.' },
  { name: 'Balances', description: 'Balances of balance accounts: available and committed funds, holds and the balance history.' },
  { name: 'Counterparties', description: "A customer's payees, the owners of its external accounts." },
  { name: 'Transfers', description: 'Money movements between accounts, rails and currencies, from DRAFT to COMPLETED.' },
  { name: 'Transfer drafts', description: 'Transfers registered for the platform’s approval before they are created.' },
  { name: 'Fixed routes', description: 'Virtual bank accounts and virtual wallets whose deposits move on to a fixed destination.' },
  { name: 'FX', description: 'Foreign exchange: pairs, indicative rates, firm quotes, trades and pricing.' },
  { name: 'Liquidity', description: 'The credit line: its payout treasury, draws and repayments.' },
  { name: 'Invoices', description: 'Invoices a customer sends its payers, with a hosted payment page.' },
  { name: 'Agents', description: 'AI agents acting for a customer within limits, with their own keys.' },
  { name: 'Webhooks', description: 'Webhook endpoints, their signing secrets, and the messages and delivery attempts sent to them.' },
  { name: 'Audit', description: 'Event history of a resource, as-of reads, and signed checkpoints of the event log with their proofs.' },
  { name: 'Sandbox', description: 'Sandbox-only simulations (deposits, reviews, settlement steps); 403 in production.' },
  { name: 'Health', description: 'Liveness and readiness probes for orchestrators; no API key.' },
  { name: 'Console', description: 'The browser console’s session: an API key exchanged for an httpOnly cookie, read back and ended.' },
  { name: 'Operator', description: 'Deployment-wide reads for operator keys: consumers, parked events, any resource’s history.' },
] as const

export type OpenApiTag = (typeof OPENAPI_TAGS)[number]['name']
