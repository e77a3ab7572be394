// Path parameters and headers of the customer operations, shared by the write and read routes.
import { z } from 'zod'

const customerId = z.string().max(64).describe('Customer id, prefix cus_')

/** `{id}`: the spec names the customer path parameter `id` on the verification operation. */
export const customerIdParams = z.object({ id: customerId })
/** `{customerId}`: the spec's name on the associated-business operation. */
export const customerIdNamedParams = z.object({ customerId })
export const associatedEntityParams = z.object({ customerId, entityId: z.string().max(64).describe('Associated entity id, prefix asp_') })
export const sessionParams = z.object({ id: customerId, sessionId: z.string().max(64).describe('Verification session id, prefix vsess_') })

const onBehalfOf = z.string().max(64).optional()
  .describe('Acting for one customer (platform session): only that customer is visible; another customer id answers 404')

export const writeHeaders = z.object({
  'idempotency-key': z.string().optional().describe('Makes retries safe for 24 hours; a replay returns the original response with Idempotent-Replayed: true'),
  'x-on-behalf-of': onBehalfOf,
})
export const readHeaders = z.object({ 'x-on-behalf-of': onBehalfOf })

export const CUSTOMER_TAGS = ['Customers']
