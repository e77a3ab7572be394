// Path parameters of the customer operations, shared by the write and read routes.
import { idParam } from './idParam.js'

/** `{id}`: the spec names the customer path parameter `id` on the verification operation. */
export const customerIdParams = idParam('id', 'cus_', 'Customer')
/** `{customerId}`: the spec's name on the associated-business operation. */
export const customerIdNamedParams = idParam('customerId', 'cus_', 'Customer')
export const associatedEntityParams = customerIdNamedParams.extend(idParam('entityId', 'asp_', 'Associated entity').shape)
export const sessionParams = customerIdParams.extend(idParam('sessionId', 'vsess_', 'Verification session').shape)

export const CUSTOMER_TAGS = ['Customers']
