// Who holds each kind of account (the `provider` field): the sandbox's simulated bank and custodian,
// or the partners production uses (real provider adapters are out of scope: design.md).
import type { Environment } from '../../domain/shared/environment.js'

export const balanceProvider = (environment: Environment) => (environment === 'sandbox' ? 'SANDBOX_BANK' : 'PARTNER_BANK')
export const walletProvider = (environment: Environment) => (environment === 'sandbox' ? 'SANDBOX_CUSTODY' : 'PARTNER_CUSTODY')
/** Accounts held elsewhere (external bank accounts and wallets): the service only knows their coordinates. */
export const EXTERNAL_PROVIDER = 'EXTERNAL'
