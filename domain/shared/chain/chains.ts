// The chains an external or internal wallet lives on, as the spec lists them ("External wallets",
// "Account"): each chain's address type, the currencies it carries, the custody types a wallet may
// declare, and the check that a wallet's chains and currencies fit its one address type.
import { z } from 'zod'
import { type DomainError, type ErrorDetail, invalid } from '../../errors.js'
import { type Checked, accepted } from '../checked.js'
import type { AccountCurrencyCode } from '../paymentRails.js'

export const CHAINS = ['ETHEREUM', 'BASE', 'POLYGON', 'SOLANA', 'TRON', 'BITCOIN', 'ARBITRUM', 'ROBINHOOD'] as const
export type Chain = (typeof CHAINS)[number]

export const ADDRESS_TYPES = ['EVM', 'TRON', 'BITCOIN', 'SOLANA'] as const
export type AddressType = (typeof ADDRESS_TYPES)[number]

export const CUSTODY_TYPES = [
  'SELF_HOSTED',
  'ANCHORAGE',
  'BINANCE',
  'BITGO',
  'CIRCLE',
  'COINBASE',
  'FIREBLOCKS',
  'GEMINI',
  'KRAKEN',
  'ROBINHOOD',
  'OTHER_EXCHANGE',
] as const
export type CustodyType = (typeof CUSTODY_TYPES)[number]

/** The crypto currencies of the spec's account currency list: what a wallet can hold. */
export const WALLET_CURRENCIES = ['USDC', 'USDT', 'USAT', 'BTC'] as const satisfies readonly AccountCurrencyCode[]
export type WalletCurrency = (typeof WALLET_CURRENCIES)[number]

type ChainFacts = { addressType: AddressType; currencies: readonly WalletCurrency[] }

/**
 * Each chain's address type and the currencies the service moves on it. The spec gives the chains,
 * the address types and that USDT and USAT are the sandbox's mintable tokens on Ethereum; the rest
 * is the issuers' own deployments: Circle issues USDC natively on Ethereum, Base, Polygon PoS,
 * Solana and Arbitrum (and ended USDC on Tron in 2024); Tether's USDT is on Ethereum, Tron, Solana,
 * Polygon PoS and Arbitrum (USDT0), not natively on Base; USAT, Tether's US-regulated token, is on
 * Ethereum only. Robinhood Chain (an Arbitrum Orbit L2, so EVM) is taken to carry USDC: our
 * assumption, the spec names no currency for it.
 */
export const CHAIN_TABLE = {
  ETHEREUM: { addressType: 'EVM', currencies: ['USDC', 'USDT', 'USAT'] },
  BASE: { addressType: 'EVM', currencies: ['USDC'] },
  POLYGON: { addressType: 'EVM', currencies: ['USDC', 'USDT'] },
  ARBITRUM: { addressType: 'EVM', currencies: ['USDC', 'USDT'] },
  ROBINHOOD: { addressType: 'EVM', currencies: ['USDC'] },
  SOLANA: { addressType: 'SOLANA', currencies: ['USDC', 'USDT'] },
  TRON: { addressType: 'TRON', currencies: ['USDT'] },
  BITCOIN: { addressType: 'BITCOIN', currencies: ['BTC'] },
} as const satisfies Record<Chain, ChainFacts>

export const chainSchema = z.enum(CHAINS).describe('Chain')
export const addressTypeSchema = z.enum(ADDRESS_TYPES).describe('Address type: the address format a wallet uses')
export const custodyTypeSchema = z.enum(CUSTODY_TYPES).describe('Who holds the wallet’s keys')
export const walletCurrencySchema = z.enum(WALLET_CURRENCIES).describe('Crypto currency')

export const WALLET_FIT_LIMITS = {
  /** Chains and currencies named by one wallet; more is refused before any other check. */
  maxChains: 16,
  maxCurrencies: 16,
} as const

const isChain = (value: string): value is Chain => (CHAINS as readonly string[]).includes(value)
const isWalletCurrency = (value: string): value is WalletCurrency => (WALLET_CURRENCIES as readonly string[]).includes(value)

export const addressTypeOf = (chain: Chain): AddressType => CHAIN_TABLE[chain].addressType

export const chainsOf = (addressType: AddressType): Chain[] => CHAINS.filter((chain) => addressTypeOf(chain) === addressType)

export const chainCarries = (chain: Chain, currency: WalletCurrency): boolean =>
  (CHAIN_TABLE[chain].currencies as readonly WalletCurrency[]).includes(currency)

export type WalletFit = { addressType: AddressType; chains: readonly string[]; currencies: readonly string[] }

/**
 * Whether a wallet's chains and currencies fit its address type: every chain uses that address type
 * (one address type per wallet), and every currency is carried by at least one of the chains. All
 * offending values are named, each in its own detail.
 */
export function checkWalletFit(fit: WalletFit): Checked<{ chains: Chain[]; currencies: WalletCurrency[] }> {
  const details: ErrorDetail[] = []
  const list = (name: 'chains' | 'currencies', values: readonly string[], max: number): boolean => {
    if (values.length === 0) details.push({ field: name, message: `must name at least one ${name === 'chains' ? 'chain' : 'currency'}` })
    if (values.length > max) details.push({ field: name, message: `may name at most ${max}` })
    return values.length > 0 && values.length <= max
  }
  const chainsBounded = list('chains', fit.chains, WALLET_FIT_LIMITS.maxChains)
  const currenciesBounded = list('currencies', fit.currencies, WALLET_FIT_LIMITS.maxCurrencies)
  if (!chainsBounded || !currenciesBounded) return refusedFit(details)

  const chains: Chain[] = []
  fit.chains.forEach((value, i) => {
    const field = `chains.${i}`
    if (!isChain(value)) details.push({ field, message: `${value} is not a chain (${CHAINS.join(', ')})`, value })
    else if (chains.includes(value)) details.push({ field, message: `repeats ${value}`, value })
    else if (addressTypeOf(value) !== fit.addressType) {
      details.push({ field, message: `${value} uses ${addressTypeOf(value)} addresses, not ${fit.addressType}`, value })
    } else chains.push(value)
  })

  const currencies: WalletCurrency[] = []
  fit.currencies.forEach((value, i) => {
    const field = `currencies.${i}`
    if (!isWalletCurrency(value)) {
      details.push({ field, message: `${value} is not a currency a wallet holds (${WALLET_CURRENCIES.join(', ')})`, value })
    } else if (currencies.includes(value)) details.push({ field, message: `repeats ${value}`, value })
    else {
      currencies.push(value)
      if (chains.length > 0 && !chains.some((chain) => chainCarries(chain, value))) {
        const carriers = CHAINS.filter((chain) => chainCarries(chain, value) && addressTypeOf(chain) === fit.addressType)
        const hint = carriers.length > 0 ? `; it is on ${carriers.join(', ')}` : `; no ${fit.addressType} chain carries it`
        details.push({ field, message: `${value} is not carried on ${chains.join(', ')}${hint}`, value })
      }
    }
  })
  return details.length > 0 ? refusedFit(details) : accepted({ chains, currencies })
}

function refusedFit(details: ErrorDetail[]): { ok: false; error: DomainError } {
  const first = details[0]
  const summary = first ? `${first.field} ${first.message}` : 'does not fit'
  return { ok: false, error: invalid('wallet_chains_mismatch', `The wallet's chains and currencies do not fit: ${summary}`, details) }
}
