// The organization's fee wallet on a chain, where FEE_CRYPTO transfers sweep developer fees. The
// sandbox has no custody: the address is derived from the organization and the chain (stable, in
// the chain's format), standing in for the treasury wallet a production custody adapter would give.
import { createHash } from 'node:crypto'
import { type Chain, addressTypeOf, sandboxWalletAddress } from '../../domain/shared/chain/index.js'

export function sandboxFeeWallet(organizationId: string, chain: Chain): string {
  const seed = createHash('sha256').update(`fee-wallet:${organizationId}:${chain}`).digest()
  return sandboxWalletAddress(addressTypeOf(chain), seed)
}
