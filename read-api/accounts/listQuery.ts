// Query of the account lists (GET /v1/accounts, GET /v1/customers/{customerId}/accounts): the
// spec's filters, expand, and the offset-or-cursor paging every such list shares
// (http/pagination/offsetShapedList.ts). Array parameters take repeated values, comma-separated
// values, or both; the bracket spelling (`currencyCodes[]`) is folded in first (bracketAliases.ts).
import { z } from 'zod'
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '../../domain/account/accountKinds.js'
import { ADDRESS_TYPES } from '../../domain/shared/chain/chains.js'
import { ACCOUNT_CURRENCY_CODES, PAYMENT_RAILS } from '../../domain/shared/paymentRails.js'
import { ID_PARAM_MAX_LENGTH } from '../../http/idParam.js'
import { offsetShapedListQuery } from '../../http/pagination/offsetShapedList.js'
import { ACCOUNT_EXPANSIONS, ACCOUNT_LIST_LIMITS } from './limits.js'

const L = ACCOUNT_LIST_LIMITS

/** `a,b` or `a&a` or both, as one list of trimmed, non-empty values. */
export const splitList = (value: string | string[]): string[] =>
  [value]
    .flat()
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')

/** A list parameter whose values are each one of `values`; repeated values count once. */
function enumList<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z
    .union([z.string().max(L.listParamMaxLength), z.array(z.string().max(L.listParamMaxLength)).max(L.maxListValues)])
    .transform((v) => [...new Set(splitList(v))])
    .pipe(z.array(z.enum(values)).min(1).max(L.maxListValues))
    .describe(
      `${label}: repeat the parameter or separate values by commas (the name[] spelling is accepted too); ` +
        `at most ${L.maxListValues} values, each one of ${values.join(', ')}`,
    )
}

const booleanParam = (what: string) =>
  z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .describe(`${what}: exactly true or false`)

const idPrefix = z
  .string()
  .min(1)
  .max(ID_PARAM_MAX_LENGTH)
  .describe('Account id prefix: accounts whose id starts with this text (for example eba_ for external bank accounts)')

/** The filters both account lists take, and expand; the organization-wide list adds customerId. */
const filterShape = {
  id: idPrefix.optional(),
  holdsBalance: booleanParam('Only balance accounts (true) or only the others (false)').optional(),
  balanceSourceEligible: booleanParam('Only accounts that can (true) or cannot (false) fund a transfer from balance').optional(),
  counterpartyId: z.string().max(ID_PARAM_MAX_LENGTH).optional().describe('Only the accounts of this counterparty (cp_)'),
  type: z.enum(ACCOUNT_TYPES).optional().describe('Only accounts of this type'),
  provider: z.string().min(1).max(L.providerMaxLength).optional().describe('Only accounts held by this provider (exact match)'),
  status: z.enum(ACCOUNT_STATUSES).optional().describe('Only accounts in this status'),
  addressType: z.enum(ADDRESS_TYPES).optional().describe('Only wallets of this address type'),
  currencyCodes: enumList(ACCOUNT_CURRENCY_CODES, 'Accounts holding any of these currencies').optional(),
  paymentRails: enumList(PAYMENT_RAILS, 'Accounts on any of these payment rails').optional(),
  expand: enumList(ACCOUNT_EXPANSIONS, 'Related objects to include in each account: customer, sweepTargetAccount, counterparty').optional(),
}

export const customerIdFilter = z.string().max(ID_PARAM_MAX_LENGTH).optional().describe("Only this customer's accounts (cus_)")

/** GET /v1/accounts */
export const accountListQuery = offsetShapedListQuery({ ...filterShape, customerId: customerIdFilter })
/** GET /v1/customers/{customerId}/accounts: the path names the customer. */
export const customerAccountListQuery = offsetShapedListQuery(filterShape)
/** GET /v1/accounts/{id}/virtual-accounts: paging only. */
export const virtualAccountListQuery = offsetShapedListQuery({})
export type AccountListQuery = z.infer<typeof accountListQuery>
export type CustomerAccountListQuery = z.infer<typeof customerAccountListQuery>
/** GET /v1/accounts/{id} */
export const accountReadQuery = z.object({ expand: filterShape.expand })

export type AccountFilters = {
  id?: string | undefined
  customerId?: string | undefined
  holdsBalance?: boolean | undefined
  balanceSourceEligible?: boolean | undefined
  counterpartyId?: string | undefined
  type?: (typeof ACCOUNT_TYPES)[number] | undefined
  provider?: string | undefined
  status?: (typeof ACCOUNT_STATUSES)[number] | undefined
  addressType?: (typeof ADDRESS_TYPES)[number] | undefined
  currencyCodes?: string[] | undefined
  paymentRails?: string[] | undefined
}
