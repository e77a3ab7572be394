// A fresh set of tracking ids for the rails engine's next step, drawn in each rail's real format
// (domain/rails): the decider keeps the ones the leg's rail carries (legTracking.ts), so the pool
// holds a hash for every chain.
import { achTraceNumber, imad, omad, txHash, uetr } from '../../domain/rails/index.js'
import { CHAINS } from '../../domain/shared/chain/index.js'
import type { TrackingPool } from '../../domain/transfer/legTracking.js'

const hashes = () => Object.fromEntries(CHAINS.map((chain) => [chain, txHash(chain)]))

export function freshTrackingPool(now: Date): TrackingPool {
  return { uetr: uetr(), imad: imad(now), omad: omad(now), achTraceNumber: achTraceNumber(), txHash: hashes(), feeTxHash: hashes() }
}
