// Sandbox wallet addresses: the addresses of the service's own (internal) wallets in the sandbox,
// built from random bytes the caller draws, and the external wallet addresses whose sandbox review
// ends CLOSED, so integrators can exercise a refused wallet.
import { address as bitcoinAddress, networks } from 'bitcoinjs-lib'
import bs58 from 'bs58'
import bs58check from 'bs58check'
import { checksum as evmChecksum } from 'ox/Address'
import type { AddressType } from './chains.js'
import { WALLET_ADDRESS_LIMITS } from './walletAddress.js'

/** Random bytes each address type is built from (the first this many of those given are used). */
export const SANDBOX_ADDRESS_BYTES = { EVM: 20, SOLANA: 32, TRON: 20, BITCOIN: 20 } as const satisfies Record<AddressType, number>

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

/**
 * A valid address of the type: EVM 20 bytes, EIP-55 checksummed; Solana 32 bytes in base58; Tron
 * 0x41 and 20 bytes in base58check; Bitcoin a testnet (tb1) P2WPKH of 20 bytes. It passes
 * validateWalletAddress in the sandbox, unchanged by its normalization.
 */
export function sandboxWalletAddress(addressType: AddressType, randomBytes: Uint8Array): string {
  const needed = SANDBOX_ADDRESS_BYTES[addressType]
  if (randomBytes.length < needed) throw new RangeError(`a sandbox ${addressType} address needs ${needed} random bytes`)
  const bytes = randomBytes.subarray(0, needed)
  switch (addressType) {
    case 'EVM':
      return evmChecksum(`0x${hex(bytes)}`)
    case 'SOLANA':
      return bs58.encode(bytes)
    case 'TRON':
      return bs58check.encode(Uint8Array.from([WALLET_ADDRESS_LIMITS.tronVersionByte, ...bytes]))
    case 'BITCOIN':
      return bitcoinAddress.toBech32(bytes, 0, networks.testnet.bech32)
  }
}

/**
 * The sandbox review trigger for external wallets: a sandbox external wallet whose (normalized)
 * address is one of these is CLOSED by its review instead of ACTIVE. Each is a well-known burn
 * address, valid for its type, that nobody holds the key to: the EVM 0x…dEaD and zero addresses,
 * Solana's incinerator, Tron's black hole (0x41 and 20 zero bytes), and Bitcoin's "eater" (P2PKH,
 * mainnet, which the sandbox takes).
 */
export const SANDBOX_REJECTED_WALLET_ADDRESSES = {
  EVM: ['0x000000000000000000000000000000000000dEaD', '0x0000000000000000000000000000000000000000'],
  SOLANA: ['1nc1nerator11111111111111111111111111111111'],
  TRON: ['T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'],
  BITCOIN: ['1BitcoinEaterAddressDontSendf59kuE'],
} as const satisfies Record<AddressType, readonly string[]>

/** Whether a sandbox review refuses this wallet; `normalizedAddress` is validateWalletAddress's output. */
export function isSandboxRejectedWalletAddress(addressType: AddressType, normalizedAddress: string): boolean {
  return (SANDBOX_REJECTED_WALLET_ADDRESSES[addressType] as readonly string[]).includes(normalizedAddress)
}
