// The transfers the platform creates after another one's events (domain/transfer/systemTransfers.ts):
//   refund initiated → to a balance: the money goes back at once (a released hold, or a credit of
//     the source's refund account; refused, the money is held in suspense) and the refund
//     completes; else a REFUND_CRYPTO / REFUND_FIAT
//     transfer is created and funded (the platform holds the deposit), then run by the rails engine;
//   a refund transfer completed → the refund of its parent completes, with its transaction hash;
//   a crypto transfer with a developer fee completed → a FEE_CRYPTO transfer sweeps the fee.
// Ids are derived (derivedTransferId) and every command carries a command id from the transfer, so
// a crash or replay creates nothing twice.
import { TRANSFER_RETURN_PREFIX } from '../../domain/account/creditCause.js'
import { DomainError } from '../../domain/errors.js'
import { sandboxStepDelayMs } from '../../domain/rails/index.js'
import { newId } from '../../domain/shared/ids.js'
import type { Chain } from '../../domain/shared/chain/index.js'
import { type OpenTransferState, type TransferCommand, transferDecider } from '../../domain/transfer/decider.js'
import { type SystemTransfer, feeTransfer, refundTransfer, sweepsFee } from '../../domain/transfer/systemTransfers.js'
import type { Position } from '../../events/store/port.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { streams } from '../../events/streams.js'
import { creditFunds } from '../accounts/funds.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { derivedTransferId } from '../transfers/derivedTransferId.js'
import { sandboxFeeWallet } from '../transfers/feeWallet.js'
import { suspendFunds } from '../transfers/heldFunds.js'
import type { Workflow } from './workflow.js'

const transferCommand = (commands: Commands, command: TransferCommand, origin: CommandOrigin, commandId: string) =>
  commands.handle(transferDecider, streams.transfer(command.transferId), command, { ...origin, commandId })

async function createFunded(commands: Commands, organizationId: string, transferId: string, data: SystemTransfer, origin: CommandOrigin) {
  const now = new Date().toISOString()
  await transferCommand(
    commands,
    { type: 'CreateTransfer', organizationId, transferId, now, transfer: data },
    origin,
    `system-transfer:${transferId}:create`,
  )
  await transferCommand(
    commands,
    {
      type: 'FundTransfer',
      organizationId,
      transferId,
      now,
      method: 'DEPOSIT',
      accountId: null,
      holdId: null,
      fundingCustomerId: null,
      note: null,
      originator: null,
      tracking: {},
    },
    origin,
    `system-transfer:${transferId}:fund`,
  )
}

const made = (parent: OpenTransferState, legs: number, rail: string) => {
  const now = new Date()
  return {
    legIds: Array.from({ length: legs }, () => newId('tleg')),
    now,
    schedule: {
      cutoffTimezone: null,
      nextCutoffAt: null,
      estimatedSettlementAt: new Date(now.getTime() + 2 * sandboxStepDelayMs(rail as Chain)).toISOString(),
    },
    parent,
  }
}

async function completeRefund(commands: Commands, parent: OpenTransferState, txHash: string | null, origin: CommandOrigin) {
  const { organizationId, transferId } = parent.created
  await transferCommand(
    commands,
    { type: 'CompleteRefund', organizationId, transferId, now: new Date().toISOString(), txHash },
    origin,
    `refund:${transferId}:complete`,
  )
}

async function onRefundInitiated(commands: Commands, parent: OpenTransferState, origin: CommandOrigin): Promise<void> {
  const refund = parent.refund
  if (!refund || refund.status === 'COMPLETED') return
  const { organizationId, transferId } = parent.created
  if (parent.funding?.method === 'BALANCE') return completeRefund(commands, parent, null, origin)
  if (parent.returnedToAccountId) {
    try {
      await creditFunds(
        commands,
        {
          organizationId,
          accountId: parent.returnedToAccountId,
          currency: refund.amount.currency,
          amountMinor: BigInt(refund.amount.amountMinor),
          cause: `${TRANSFER_RETURN_PREFIX}${transferId}`,
          source: 'world',
        },
        { ...origin, commandId: `refund:${transferId}:credit` },
      )
    } catch (error) {
      // The refund account refused it (closed meanwhile): the money is held in suspense, not lost.
      if (!(error instanceof DomainError)) throw error
      await suspendFunds(commands, parent, { stage: 'REFUND', from: 'world', refusal: error }, origin)
      return
    }
    return completeRefund(commands, parent, null, origin)
  }
  if (!refund.refundTransferId) return
  const data = refundTransfer(
    parent,
    { address: refund.address, bankAccountId: refund.externalAccountId },
    made(parent, 2, parent.created.source.paymentRail),
  )
  await createFunded(commands, organizationId, refund.refundTransferId, data, origin)
}

async function onCompleted(commands: Commands, s: OpenTransferState, origin: CommandOrigin): Promise<void> {
  const c = s.created
  if ((c.flow === 'REFUND_CRYPTO' || c.flow === 'REFUND_FIAT') && c.parentTransferId) {
    const { state: parent } = await commands.load(transferDecider, streams.transfer(c.parentTransferId))
    if (parent.status === 'none') return
    const txHash = s.legs.at(-1)?.tracking.txHash ?? null
    return completeRefund(commands, parent, txHash, origin)
  }
  if (!sweepsFee(s)) return
  const feeId = derivedTransferId(c.transferId, 'fee')
  const wallet = sandboxFeeWallet(c.organizationId, c.source.paymentRail as Chain)
  await createFunded(commands, c.organizationId, feeId, feeTransfer(s, wallet, made(s, 2, c.source.paymentRail)), origin)
}

export const systemTransfers: Workflow = {
  name: 'system_transfers',
  handles: new Set(['TransferRefundInitiated', 'TransferCompleted']),
  commandsFor(event) {
    const transferId = String(event.data.transferId)
    return [
      {
        step: 'system-transfer',
        organizationId: organizationOfEvent(event),
        async run(commands, context): Promise<{ position: Position | undefined }> {
          const { state } = await commands.load(transferDecider, streams.transfer(transferId))
          if (state.status === 'none') return { position: undefined }
          if (event.type === 'TransferRefundInitiated') await onRefundInitiated(commands, state, context)
          else await onCompleted(commands, state, context)
          return { position: undefined }
        },
      },
    ]
  },
}
