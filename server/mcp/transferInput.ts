// The tools' transfer arguments: what an agent decides (a payee of its allowlist, an amount, the
// rail), never what its key fixes (its source account, its customer). Each field is the REST
// create body's own schema (domain/transfer/createTransferBody.ts), so a value the body refuses is
// refused here with the same rule; toCreateBody fills in the agent's source account.
import { z } from 'zod'
import { type CreateTransferBody, createTransferBody, transferDestinationBody } from '../../domain/transfer/createTransferBody.js'
import type { AgentPrincipal } from '../../http/principal.js'
import { idempotencyKey } from '../../http/headers.js'

const body = createTransferBody.shape
const destination = transferDestinationBody.shape

export const transferArgs = z
  .object({
    destinationAccountId: z
      .string()
      .min(1)
      .max(64)
      .describe('The payee: one of the agent’s allowedDestinationAccountIds (an eba_ external bank account or an acc_ balance account)'),
    paymentRail: destination.paymentRail.describe(
      'The payout rail, for example ACH or WIRE for a bank account; BALANCE for a balance account',
    ),
    destinationCurrency: destination.currency,
    sourceAmount: body.sourceAmount.unwrap().describe('The amount to send, integer minor units as a string ("2500" is 25.00 USD)'),
    clientReferenceId: body.clientReferenceId,
    remarks: body.remarks,
    confirm: body.confirm.describe('true (the default): submit now; false: keep a DRAFT to submit later with submit_transfer'),
  })
  .strict()

export type TransferArgs = z.infer<typeof transferArgs>

/** The writes' extra argument: the REST Idempotency-Key, required so a retried tool call never pays twice. */
export const idempotencyArg = {
  idempotencyKey: idempotencyKey.describe(
    'Required. A unique key per intended payment (a UUID): the same key with the same arguments replays the first answer; ' +
      'with other arguments it is refused (idempotency_key_reused). Kept 24 hours.',
  ),
}

/** The REST create body of the arguments, from the agent's own source account. */
export function toCreateBody(agent: AgentPrincipal, args: TransferArgs): CreateTransferBody {
  return {
    source: { accountId: agent.sourceAccountId },
    destination: {
      accountId: args.destinationAccountId,
      ...(args.paymentRail === undefined ? {} : { paymentRail: args.paymentRail }),
      ...(args.destinationCurrency === undefined ? {} : { currency: args.destinationCurrency }),
    },
    sourceAmount: args.sourceAmount,
    ...(args.clientReferenceId === undefined ? {} : { clientReferenceId: args.clientReferenceId }),
    ...(args.remarks === undefined ? {} : { remarks: args.remarks }),
    ...(args.confirm === undefined ? {} : { confirm: args.confirm }),
  }
}
