// External wallets (spec: "External wallets"): the create request, the record it answers with,
// the key two requests for the same wallet share, and what an existing match must agree on.
// A wallet's address type comes from its chains (the request names no address type): every chain
// must use the same one, and every currency must be carried by one of the chains.
import { z } from 'zod'
import { beneficiaryNameSchema, beneficiaryTypeSchema } from '../counterparty/resource.js'
import { type ErrorDetail, invalid } from '../errors.js'
import { type MatchKeyId, matchKeyId } from '../match-claim/matchKey.js'
import { addressSchema } from '../shared/address.js'
import {
  type AddressType,
  WALLET_ADDRESS_LIMITS,
  WALLET_FIT_LIMITS,
  chainSchema,
  custodyTypeSchema,
  walletCurrencySchema,
} from '../shared/chain/index.js'
import { accountMetadataSchema } from './accountMetadata.js'
import { ACCOUNT_EVENT_LIMITS } from './events.js'
import type { OpenAccountState } from './decider.js'
import { type AccountResource, toAccountResource } from './resource.js'

const idField = (what: string) => z.string().min(1).max(64).describe(what)

export const createExternalWalletBody = z.object({
  customerId: idField('The customer (cus_) the wallet is registered for'),
  walletAddress: z
    .string()
    .min(1)
    .max(WALLET_ADDRESS_LIMITS.maxLength)
    .describe(
      'The on-chain address, checked for the chains’ address type: EVM 0x + 40 hex digits (mixed case must match its EIP-55 ' +
        'checksum), Solana base58 of 32 bytes, Tron base58check (T...), Bitcoin bech32/bech32m or base58check (testnet too in the sandbox)',
    ),
  counterpartyId: idField(
    'An existing counterparty (cp_) of the same customer; when omitted, one is found or created from the beneficiary fields ' +
      "(third party) or from the customer's own name and address (first party)",
  ).optional(),
  chains: z
    .array(chainSchema)
    .min(1)
    .max(WALLET_FIT_LIMITS.maxChains)
    .describe('Chains the address is used on; all of one address type (EVM: ETHEREUM, BASE, POLYGON, ARBITRUM, ROBINHOOD)'),
  currencies: z
    .array(walletCurrencySchema)
    .min(1)
    .max(WALLET_FIT_LIMITS.maxCurrencies)
    .describe('Assets expected at the address; each must be carried by one of the chains'),
  externalReference: z
    .string()
    .min(1)
    .max(ACCOUNT_EVENT_LIMITS.referenceMaxLength)
    .optional()
    .describe('Your mapping reference (UUID v4 or CUID recommended)'),
  isThirdParty: z.boolean().default(false).describe('true when the wallet belongs to someone other than the customer; default false'),
  custodyType: custodyTypeSchema.default('SELF_HOSTED').describe('Who holds the keys; default SELF_HOSTED'),
  metadata: accountMetadataSchema.default({}),
  beneficiaryType: beneficiaryTypeSchema.optional().describe('Required when a new third-party counterparty is created'),
  beneficiaryName: beneficiaryNameSchema.optional().describe('Required when a new third-party counterparty is created'),
  beneficiaryAddress: addressSchema
    .optional()
    .describe("The beneficiary's address; required when a new third-party counterparty is created"),
})
export type CreateExternalWalletBody = z.infer<typeof createExternalWalletBody>

export const externalWalletResource = z
  .object({
    id: z.string().describe('External wallet id, prefix ewa_'),
    customerId: z.string().describe('The customer (cus_)'),
    type: z.literal('EXTERNAL_WALLET').describe('Always EXTERNAL_WALLET'),
    status: z
      .enum(['IN_REVIEW', 'ACTIVE', 'CLOSED'])
      .describe('IN_REVIEW when created; an asynchronous review makes it ACTIVE (or CLOSED when refused)'),
    walletAddress: z.string().describe('The address as stored: EVM in its EIP-55 checksummed form, bech32 in lower case'),
    addressType: z.string().describe('EVM, TRON, BITCOIN or SOLANA, from the chains'),
    createdAt: z.string().describe('ISO 8601 timestamp'),
    updatedAt: z.string().describe('ISO 8601 timestamp'),
    counterpartyId: z.string().describe('The counterparty (cp_) the wallet pays'),
    metadata: z.record(z.string(), z.unknown()).describe('Your free object (nickname, purpose, tags[])'),
    chains: z.array(z.string()).describe('Chains the address is used on'),
    currencies: z.array(z.string()).describe('Assets expected at the address'),
    custodyType: z.string().describe('Who holds the keys'),
    isThirdParty: z.boolean().describe('true when the wallet belongs to someone other than the customer'),
    externalReference: z.string().nullable().describe('Your mapping reference, or null'),
    created: z.boolean().describe('true when this request created the wallet; false when an existing match was returned'),
  })
  .describe('An external wallet')
export type ExternalWalletResource = z.infer<typeof externalWalletResource>

/** The record from an account that is an external wallet (throws on any other kind: a bug). */
export function toExternalWalletResource(state: OpenAccountState, created: boolean): ExternalWalletResource {
  const d = state.account.details
  const counterpartyId = state.account.counterpartyId
  const customerId = state.account.customerId
  if (d.kind !== 'EXTERNAL_WALLET' || counterpartyId === null || customerId === null)
    throw new Error(`account ${state.account.accountId} is not an external wallet`)
  const a: AccountResource = toAccountResource(state)
  return {
    id: a.id,
    customerId,
    type: 'EXTERNAL_WALLET',
    status: a.status,
    walletAddress: d.walletAddress,
    addressType: d.addressType,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    counterpartyId,
    metadata: a.metadata,
    chains: d.chains,
    currencies: d.currencies,
    custodyType: d.custodyType,
    isThirdParty: d.isThirdParty,
    externalReference: d.externalReference,
    created,
  }
}

/**
 * The key of "the same wallet": same customer, same counterparty, same address (normalized by its
 * type's check, so EVM case does not matter). A CLOSED wallet no longer answers it.
 */
export function externalWalletMatchKey(w: {
  organizationId: string
  customerId: string
  counterpartyId: string
  addressType: AddressType
  walletAddress: string
}): MatchKeyId {
  return matchKeyId('external_wallet', [w.organizationId, w.customerId, w.counterpartyId, w.addressType, w.walletAddress])
}

/**
 * What an existing match must also agree on to be returned (created: false): the chains and the
 * currencies (as sets) and the custody type. Anything else differing is a different wallet for the
 * same address, refused (409) rather than silently answered with the old one. Metadata and the
 * external reference are the caller's own notes: not compared, the existing ones are kept.
 */
export function matchDifferences(
  state: OpenAccountState,
  wanted: { chains: readonly string[]; currencies: readonly string[]; custodyType: string },
): ErrorDetail[] {
  const d = state.account.details
  if (d.kind !== 'EXTERNAL_WALLET') return [{ field: 'walletAddress', message: 'is registered as another kind of account' }]
  const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x))
  const details: ErrorDetail[] = []
  if (!sameSet(d.chains, wanted.chains))
    details.push({ field: 'chains', message: `the existing wallet uses ${d.chains.join(', ')}`, value: wanted.chains })
  if (!sameSet(d.currencies, wanted.currencies))
    details.push({ field: 'currencies', message: `the existing wallet expects ${d.currencies.join(', ')}`, value: wanted.currencies })
  if (d.custodyType !== wanted.custodyType)
    details.push({ field: 'custodyType', message: `the existing wallet is ${d.custodyType}`, value: wanted.custodyType })
  return details
}

const BENEFICIARY_FIELDS = ['beneficiaryType', 'beneficiaryName', 'beneficiaryAddress'] as const

/**
 * The beneficiary fields describe a new third-party counterparty only: with counterpartyId, or on a
 * first-party wallet (whose counterparty is the customer itself), they would be silently ignored,
 * so they are refused (422 beneficiary_not_applicable), each named.
 */
export function assertBeneficiaryFieldsApply(
  body: Pick<CreateExternalWalletBody, 'counterpartyId' | 'isThirdParty' | (typeof BENEFICIARY_FIELDS)[number]>,
): void {
  if (body.counterpartyId === undefined && body.isThirdParty) return
  const given = BENEFICIARY_FIELDS.filter((field) => body[field] !== undefined)
  if (given.length === 0) return
  const why =
    body.counterpartyId !== undefined ? 'counterpartyId names the counterparty' : "a first-party wallet's counterparty is the customer"
  throw invalid(
    'beneficiary_not_applicable',
    `The beneficiary fields describe a new third-party counterparty; here ${why}`,
    given.map((field) => ({ field, message: `not applicable: ${why}` })),
  )
}
