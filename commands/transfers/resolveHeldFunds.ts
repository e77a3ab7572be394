// An operator's resolution of a transfer's money held in suspense (the CLI's `suspense resolve`):
// to a balance account of the transfer's organization that holds the currency and is ACTIVE (checked
// first: a refusal changes nothing), or out of the service (`to` null: it was paid back by other
// means). The transfer records the resolution (REVERSED, its money returned to that account), then
// the account is credited from suspense: now, and by the transfer workflow after a crash (the same
// command ids). An account that refuses it anyway (closed in the meantime) holds it again.
import { type OpenTransferState, transferDecider } from '../../domain/transfer/decider.js'
import { heldFunds } from '../../domain/transfer/suspense.js'
import { conflict, invalid, notFound } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import type { EventStore } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { storeCommands } from '../runtime/commandRuntime.js'
import { loadLatest } from '../runtime/handleCommand.js'
import { creditResolution } from './heldFunds.js'
import { loadOrgAccount } from './transferFacts.js'

export type Resolution = { transferId: string; to: string | null; reason: string; actor: string }

async function transferOf(store: EventStore, transferId: string): Promise<OpenTransferState> {
  const { state } = await loadLatest(store, transferDecider, streams.transfer(transferId))
  if (state.status === 'none') throw notFound('Transfer', transferId)
  return state
}

async function checkTarget(store: EventStore, s: OpenTransferState, accountId: string, currency: string): Promise<void> {
  const account = await loadOrgAccount(store, s.created.organizationId, accountId)
  const refused = (message: string) =>
    invalid('resolution_account_invalid', `Account ${accountId} cannot take the held money: ${message}`, [
      { field: 'to', message, value: accountId },
    ])
  if (!account.account.holdsBalance) throw refused('it is not a balance account')
  if (account.status !== 'ACTIVE') throw refused(`it is ${account.status}`)
  if (!account.account.currencyCodes.includes(currency)) throw refused(`it does not hold ${currency}`)
}

export async function resolveHeldFunds(store: EventStore, r: Resolution): Promise<OpenTransferState> {
  const s = await transferOf(store, r.transferId)
  const held = heldFunds(s)
  if (!held) throw conflict('transfer_funds_not_held', `Transfer ${r.transferId} holds no money in suspense`)
  if (r.to !== null) await checkTarget(store, s, r.to, held.amount.currency)
  const { organizationId, transferId } = s.created
  const origin = { organizationId, requestId: newId('req'), actor: r.actor }
  const runtime = storeCommands(store)
  const resolved = await runtime.handle(
    transferDecider,
    streams.transfer(transferId),
    { type: 'ResolveSuspense', organizationId, transferId, now: new Date().toISOString(), accountId: r.to, reason: r.reason },
    { ...origin, commandId: `transfer-resolve:${transferId}:${s.suspensions ?? 0}` },
  )
  if (resolved.state.status === 'none') throw new Error(`transfer ${transferId} missing after its resolution`)
  await creditResolution(runtime, resolved.state, origin)
  return transferOf(store, transferId)
}
