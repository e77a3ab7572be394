// A wallet address checked for its address type with the formats' own libraries: EVM hex and its
// EIP-55 checksum (ox, the library viem is built on), Solana base58 of 32 bytes (bs58), Tron
// base58check of 0x41 and 20 bytes (bs58check), Bitcoin segwit bech32/bech32m and base58check legacy
// addresses (bitcoinjs-lib). Production takes Bitcoin mainnet addresses only; the sandbox also
// takes testnet ones (it moves nothing on chain, and its own wallets are testnet addresses).
import * as secp256k1 from '@bitcoinerlab/secp256k1'
import { address as bitcoinAddress, initEccLib, networks, type Network } from 'bitcoinjs-lib'
import bs58 from 'bs58'
import bs58check from 'bs58check'
import { checksum as evmChecksum, validate as isEvmAddress } from 'ox/Address'
import { type Checked, accepted, refused } from '../checked.js'
import type { Environment } from '../environment.js'
import type { AddressType } from './chains.js'

export const WALLET_ADDRESS_LIMITS = {
  /** BIP-173's longest bech32 string; every other format here is shorter (EVM 42, Solana 44, Tron 34). */
  maxLength: 90,
  evmHexDigits: 40,
  solanaBytes: 32,
  /** Version byte 0x41 and a 20-byte account id. */
  tronBytes: 21,
  tronVersionByte: 0x41,
  /** A legacy (base58check) Bitcoin address: a version byte and a 20-byte hash. */
  bitcoinLegacyBytes: 21,
  /** Segwit versions sent to: 0 (P2WPKH, P2WSH) and 1 (taproot); later ones are not yet defined. */
  maxSegwitVersion: 1,
} as const

const L = WALLET_ADDRESS_LIMITS
const CODE = 'invalid_wallet_address'
type Refusal = (message: string) => Checked<string>

export function validateWalletAddress(
  addressType: AddressType,
  address: string,
  environment: Environment,
  field = 'walletAddress',
): Checked<string> {
  const refuse: Refusal = (message) => refused(CODE, field, message)
  if (address === '') return refuse('is required')
  if (address.length > L.maxLength) return refuse(`must be at most ${L.maxLength} characters`)
  if (/\s/.test(address)) return refuse('must not contain spaces or line breaks')
  // Printable ASCII only: a Cyrillic 'а' or a full-width digit that looks right is refused here.
  if (!/^[\x21-\x7e]+$/.test(address)) return refuse('may contain only ASCII letters and digits')
  switch (addressType) {
    case 'EVM':
      return checkEvm(address, refuse)
    case 'SOLANA':
      return checkSolana(address, refuse)
    case 'TRON':
      return checkTron(address, refuse)
    case 'BITCOIN':
      return checkBitcoin(address, environment === 'production' ? [networks.bitcoin] : [networks.bitcoin, networks.testnet], refuse)
  }
}

/** EIP-55: all-lowercase or all-uppercase hex carries no checksum; mixed case must match it. */
function checkEvm(address: string, refuse: Refusal): Checked<string> {
  if (!address.startsWith('0x')) return refuse('must start with 0x')
  const hex = address.slice(2)
  if (!/^[0-9a-fA-F]*$/.test(hex)) return refuse('must be 0x followed by hex digits (0-9, a-f)')
  if (hex.length !== L.evmHexDigits) return refuse(`must be 0x followed by ${L.evmHexDigits} hex digits; got ${hex.length}`)
  const lower = `0x${hex.toLowerCase()}`
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase()
  if (!singleCase && !isEvmAddress(address, { strict: true })) {
    return refuse('has mixed case that does not match its EIP-55 checksum: a character is mistyped')
  }
  return accepted(evmChecksum(lower))
}

const BASE58_MESSAGE = 'may contain only base58 characters (no 0, O, I or l)'

function checkSolana(address: string, refuse: Refusal): Checked<string> {
  const bytes = bs58.decodeUnsafe(address)
  if (bytes === undefined) return refuse(BASE58_MESSAGE)
  if (bytes.length !== L.solanaBytes) return refuse(`decodes to ${bytes.length} bytes; a Solana address is ${L.solanaBytes}`)
  return accepted(address)
}

function checkTron(address: string, refuse: Refusal): Checked<string> {
  if (/^41[0-9a-fA-F]{40}$/.test(address)) return refuse('is in hex form: give the base58 form, which starts with T')
  if (!address.startsWith('T')) return refuse('must start with T')
  if (bs58.decodeUnsafe(address) === undefined) return refuse(BASE58_MESSAGE)
  const payload = bs58check.decodeUnsafe(address)
  if (payload === undefined) return refuse('has a checksum that does not match: a character is mistyped')
  if (payload.length !== L.tronBytes) return refuse(`decodes to ${payload.length} bytes; a Tron address is ${L.tronBytes}`)
  if (payload[0] !== L.tronVersionByte) return refuse('is not a Tron address: its version byte is not 0x41')
  return accepted(address)
}

// bitcoinjs-lib checks a taproot address's key with an ECC library, given once, on first use.
let eccReady = false
function outputScriptOf(address: string, network: Network): boolean {
  if (!eccReady) {
    initEccLib(secp256k1)
    eccReady = true
  }
  try {
    bitcoinAddress.toOutputScript(address, network)
    return true
  } catch {
    return false
  }
}

const NETWORK_NAMES = new Map<Network, string>([
  [networks.bitcoin, 'mainnet'],
  [networks.testnet, 'testnet'],
  [networks.regtest, 'regtest'],
])
const ALL_NETWORKS = [networks.bitcoin, networks.testnet, networks.regtest]

function wrongNetwork(network: Network, allowed: readonly Network[], refuse: Refusal): Checked<string> {
  const names = allowed.map((n) => NETWORK_NAMES.get(n)).join(' or ')
  return refuse(`is a ${NETWORK_NAMES.get(network) ?? 'foreign'} address; this environment takes ${names} addresses`)
}

function checkBitcoin(address: string, allowed: readonly Network[], refuse: Refusal): Checked<string> {
  if (/^(bc|tb|bcrt)1/i.test(address)) return checkSegwit(address, allowed, refuse)
  if (bs58.decodeUnsafe(address) === undefined) return refuse(BASE58_MESSAGE)
  const payload = bs58check.decodeUnsafe(address)
  if (payload === undefined) return refuse('has a checksum that does not match: a character is mistyped')
  if (payload.length !== L.bitcoinLegacyBytes) {
    return refuse(`decodes to ${payload.length} bytes; a legacy Bitcoin address is ${L.bitcoinLegacyBytes}`)
  }
  const version = payload[0]
  const network = ALL_NETWORKS.find((n) => n.pubKeyHash === version || n.scriptHash === version)
  if (!network) return refuse(`is not a Bitcoin address: its version byte is 0x${(version ?? 0).toString(16).padStart(2, '0')}`)
  if (!allowed.includes(network)) return wrongNetwork(network, allowed, refuse)
  return outputScriptOf(address, network) ? accepted(address) : refuse('is not a valid Bitcoin address')
}

/** Segwit (BIP-173 bech32 for version 0, BIP-350 bech32m for version 1); stored lower case, as BIP-173 prefers. */
function checkSegwit(address: string, allowed: readonly Network[], refuse: Refusal): Checked<string> {
  let decoded: { version: number; prefix: string; data: Uint8Array }
  try {
    decoded = bitcoinAddress.fromBech32(address)
  } catch {
    return refuse('is not a valid bech32 address: its checksum, case or characters are wrong')
  }
  const network = ALL_NETWORKS.find((n) => n.bech32 === decoded.prefix)
  if (!network) return refuse(`has the prefix ${decoded.prefix}1, which is no Bitcoin network's`)
  if (!allowed.includes(network)) return wrongNetwork(network, allowed, refuse)
  if (decoded.version > L.maxSegwitVersion) {
    return refuse(`uses segwit version ${decoded.version}; only version 0 and 1 (taproot) addresses are accepted`)
  }
  if (!outputScriptOf(address, network)) {
    return decoded.version === 1 && decoded.data.length === 32
      ? refuse('is a taproot address whose key is not a valid public key')
      : refuse(`has a ${decoded.data.length}-byte witness program, which no version ${decoded.version} address has`)
  }
  return accepted(address.toLowerCase())
}
