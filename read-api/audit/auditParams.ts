// The shapes the audit routes share: the resource id in the path (any id the service issues), and the
// tag that groups them in the OpenAPI document.
import { z } from 'zod'
import { ID_PARAM_MAX_LENGTH } from '../../http/idParam.js'

export const AUDIT_TAGS = ['Audit']

export const auditResourceParams = z.object({
  id: z
    .string()
    .min(1)
    .max(ID_PARAM_MAX_LENGTH)
    .describe('The id of any resource of the organization (cus_, acc_, tfr_, agt_, inv_, ep_, org_, ...)'),
})
