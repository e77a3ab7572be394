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
import type { Commands } from '../runtime/commandRuntime.js'
import { streams } from '../../events/streams.js'
import { creditResolution } from './heldFunds.js'
import { loadOrgAccount } from './transferFacts.js'

export type Resolution = { transferId: string; to: string | null; reason: string; actor: string }

async function transferOf(commands: Commands, transferId: string): Promise<OpenTransferState> {
  const { state } = await commands.load(transferDecider, streams.transfer(transferId))
  if (state.status === 'none') throw notFound('Transfer', transferId)
  return state
}

async function checkTarget(commands: Commands, s: OpenTransferState, accountId: string, currency: string): Promise<void> {
  const account = await loadOrgAccount(commands, s.created.organizationId, accountId)
  const refused = (message: string) =>
    invalid('resolution_account_invalid', `Account ${accountId} cannot take the held money: ${message}`, [
      { field: 'to', message, value: accountId },
    ])
  if (!account.account.holdsBalance) throw refused('it is not a balance account')
  if (account.status !== 'ACTIVE') throw refused(`it is ${account.status}`)
  if (!account.account.currencyCodes.includes(currency)) throw refused(`it does not hold ${currency}`)
}

export async function resolveHeldFunds(commands: Commands, r: Resolution): Promise<OpenTransferState> {
  const s = await transferOf(commands, r.transferId)
  const held = heldFunds(s)
  if (!held) throw conflict('transfer_funds_not_held', `Transfer ${r.transferId} holds no money in suspense`)
  if (r.to !== null) await checkTarget(commands, s, r.to, held.amount.currency)
  const { organizationId, transferId } = s.created
  const origin = { organizationId, requestId: newId('req'), actor: r.actor }
  const resolved = await commands.handle(
    transferDecider,
    streams.transfer(transferId),
    { type: 'ResolveSuspense', organizationId, transferId, now: new Date().toISOString(), accountId: r.to, reason: r.reason },
    { ...origin, commandId: `transfer-resolve:${transferId}:${s.suspensions ?? 0}` },
  )
  if (resolved.state.status === 'none') throw new Error(`transfer ${transferId} missing after its resolution`)
  await creditResolution(commands, resolved.state, origin)
  return transferOf(commands, transferId)
}
