// Path parameters of the account routes: any account id ({id}), a hold id.
import { z } from 'zod'
import { ID_PARAM_MAX_LENGTH } from './idParam.js'
import { ACCOUNT_ID_PREFIXES } from '../domain/account/accountKinds.js'

export const accountIdParams = z.object({
  id: z
    .string()
    .max(ID_PARAM_MAX_LENGTH)
    .describe(`Account id, prefix ${ACCOUNT_ID_PREFIXES.map((p) => `${p}_`).join(', ')}`),
})

export const holdParams = accountIdParams.extend({
  holdId: z.string().max(ID_PARAM_MAX_LENGTH).describe('Hold id, prefix hld_'),
})

/** A fixed route's id: its source account's (vba_ for fiat, inw_ for crypto). */
export const fixedRouteParams = z.object({
  id: z.string().max(ID_PARAM_MAX_LENGTH).describe('Fixed route id: its source account id, prefix vba_ (fiat) or inw_ (crypto)'),
})
