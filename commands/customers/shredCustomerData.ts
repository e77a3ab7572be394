// Destroys an erased customer's data key (crypto-shredding): every sensitive field sealed with it,
// in events, read models and documents, opens as ERASED from then on. Idempotent, so the workflow
// reacting to CustomerDataErased and the operator's CLI may both call it, any number of times.
import type { CustomerDataErased } from '../../domain/customer/events.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { z } from 'zod'

/** The reason kept beside the shredded key (the data key store truncates it to its limit). */
export const shredReason = (erased: z.infer<typeof CustomerDataErased>): string => `${erased.trigger}: ${erased.reason}`

/** True when this call destroyed the key (false: it was already gone). The subject is the customer id. */
export function shredCustomerData(protection: DataProtection, erased: z.infer<typeof CustomerDataErased>): Promise<boolean> {
  return protection.keys.shred(erased.customerId, shredReason(erased))
}
