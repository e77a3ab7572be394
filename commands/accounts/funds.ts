// The money operations on a balance account, for other slices' workflows and routes (transfers
// hold, settle and release; deposits and credit-line draws credit): each one command on the
// account's stream through the command runtime, exactly once under a deterministic `commandId`
// (the runtime's dedupe) and, for credits, by its cause (the decider's). Amounts in minor units.
import type { AccountState } from '../../domain/account/decider.js'
import type { CreditSource, TransitAccount } from '../../domain/balance-account/funds.js'
import { accountDecider } from '../../domain/account/decider.js'
import { streams } from '../../events/streams.js'
import type { CommandOrigin } from '../runtime/commandOrigin.js'
import type { CommandResult } from '../runtime/commandResult.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'

type Target = { organizationId: string; accountId: string }
type Amount = { currency: string; amountMinor: bigint }

const run = (runtime: Pick<CommandRuntime, 'handle'>, command: Parameters<typeof accountDecider.decide>[0], origin: CommandOrigin) =>
  runtime.handle(accountDecider, streams.account(command.accountId), command, origin)

/** Credits `amountMinor` to available: from the world (a deposit, a fund-in) or the credit line (a draw). `cause` makes it idempotent. */
export function creditFunds(
  runtime: Pick<CommandRuntime, 'handle'>,
  c: Target & Amount & { cause: string; source: CreditSource },
  origin: CommandOrigin,
): Promise<CommandResult<AccountState>> {
  return run(runtime, { type: 'CreditFunds', ...c, now: new Date().toISOString() }, origin)
}

/** Commits `amountMinor` of available funds to an in-flight payout (insufficient_funds when it is not there). */
export function placeHold(runtime: Pick<CommandRuntime, 'handle'>, c: Target & Amount & { holdId: string }, origin: CommandOrigin) {
  return run(runtime, { type: 'PlaceHold', ...c, now: new Date().toISOString() }, origin)
}

/** The payout left: the held funds go `to` clearing or the world (less `feeMinor`, which goes to the fees account). */
export function settleHold(
  runtime: Pick<CommandRuntime, 'handle'>,
  c: Target & { holdId: string; feeMinor?: bigint; to: TransitAccount },
  origin: CommandOrigin,
) {
  return run(runtime, { type: 'SettleHold', ...c, now: new Date().toISOString() }, origin)
}

/** The payout did not happen: the held funds return to available. */
export function releaseHold(runtime: Pick<CommandRuntime, 'handle'>, c: Target & { holdId: string }, origin: CommandOrigin) {
  return run(runtime, { type: 'ReleaseHold', ...c, now: new Date().toISOString() }, origin)
}

/** A credit taken back (a returned deposit): from available to the world. */
export function reverseCredit(runtime: Pick<CommandRuntime, 'handle'>, c: Target & Amount & { cause: string }, origin: CommandOrigin) {
  return run(runtime, { type: 'ReverseCredit', ...c, now: new Date().toISOString() }, origin)
}

/** The whole of a credit taken back, once (by its cause), `to` clearing or the world. */
export function returnCredit(
  runtime: Pick<CommandRuntime, 'handle'>,
  c: Target & { cause: string; to: TransitAccount },
  origin: CommandOrigin,
) {
  return run(runtime, { type: 'ReturnCredit', ...c, now: new Date().toISOString() }, origin)
}
