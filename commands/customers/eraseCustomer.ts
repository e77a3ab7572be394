// An operator's erasure of a customer's personal data: the audit event first (who, why, when),
// through the command runtime, then the data key shredded at once rather than waiting for the
// workflow (which shreds again, a no-op). Erasing an erased customer appends nothing and shreds
// nothing new: the answer says it was already erased.
import { customerDecider } from '../../domain/customer/decider.js'
import { notFound } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import { streams } from '../../events/streams.js'
import { shredCustomerData } from './shredCustomerData.js'
import type { Commands } from '../runtime/commandRuntime.js'

export type OperatorErasure = { customerId: string; reason: string; erasedBy: string; actor: string }

export type ErasureResult = { customerId: string; erasedAt: string; alreadyErased: boolean }

export async function eraseCustomerByOperator(
  deps: { commands: Commands; protection: DataProtection },
  input: OperatorErasure,
): Promise<ErasureResult> {
  const stream = streams.customer(input.customerId)
  // The operator names a customer, not its organization: the stream says which it is.
  const { state } = await deps.commands.load(customerDecider, stream)
  if (!(state.exists || state.deleted)) throw notFound('Customer', input.customerId)
  const { organizationId } = state
  const result = await deps.commands.handle(
    customerDecider,
    stream,
    {
      type: 'EraseCustomerData',
      organizationId,
      customerId: input.customerId,
      now: new Date().toISOString(),
      trigger: 'OPERATOR',
      erasedBy: input.erasedBy,
      reason: input.reason,
    },
    { organizationId, requestId: newId('req'), actor: input.actor },
  )
  const after = result.state
  if (!(after.exists || after.deleted) || after.erasedAt === null)
    throw new Error(`customer ${input.customerId} is not erased after its erasure`)
  // Also when already erased: a shred the workflow has not done yet is done now (idempotent).
  await shredCustomerData(deps.protection, {
    customerId: input.customerId,
    erasedAt: after.erasedAt,
    erasedBy: input.erasedBy,
    reason: input.reason,
    trigger: 'OPERATOR',
  })
  return { customerId: input.customerId, erasedAt: after.erasedAt, alreadyErased: result.events.length === 0 }
}
