// Chains, address types, custody types and wallet addresses: the reference data and checks every
// wallet (external, internal, virtual) uses.
export {
  ADDRESS_TYPES,
  type AddressType,
  CHAINS,
  CHAIN_TABLE,
  CUSTODY_TYPES,
  type Chain,
  type CustodyType,
  WALLET_CURRENCIES,
  WALLET_FIT_LIMITS,
  type WalletCurrency,
  type WalletFit,
  addressTypeOf,
  addressTypeSchema,
  chainCarries,
  chainSchema,
  chainsOf,
  checkWalletFit,
  custodyTypeSchema,
  walletCurrencySchema,
} from './chains.js'
export { WALLET_ADDRESS_LIMITS, validateWalletAddress } from './walletAddress.js'
export {
  SANDBOX_ADDRESS_BYTES,
  SANDBOX_REJECTED_WALLET_ADDRESSES,
  isSandboxRejectedWalletAddress,
  sandboxWalletAddress,
} from './sandboxWallets.js'
