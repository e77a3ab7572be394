// Query of GET /v1/transfers and GET /v1/transfers/{id}: the spec's filters (their names are ours:
// the spec does not show them), expand, and offset or cursor paging (http/pagination/linkedPage.ts).
// expand takes repeated values, comma-separated values, or both (and the expand[] spelling).
import { z } from 'zod'
import { transferFlowSchema } from '../../domain/transfer/route.js'
import { transferStatusSchema } from '../../domain/transfer/statuses.js'
import { ID_PARAM_MAX_LENGTH } from '../../http/idParam.js'
import { offsetOrCursorQuery } from '../../http/pagination/offsetOrCursor.js'
import { splitList } from '../accounts/listQuery.js'
import { AGENT_APPROVAL_STATUSES, TRANSFER_EXPANSIONS, TRANSFER_LIST_LIMITS } from './limits.js'

const L = TRANSFER_LIST_LIMITS
const idFilter = (what: string) => z.string().min(1).max(ID_PARAM_MAX_LENGTH).optional().describe(what)

const expand = z
  .union([z.string().max(L.expandMaxLength), z.array(z.string().max(L.expandMaxLength)).max(L.maxExpandValues)])
  .transform((v) => [...new Set(splitList(v))])
  .pipe(z.array(z.enum(TRANSFER_EXPANSIONS)).min(1).max(L.maxExpandValues))
  .optional()
  .describe(
    `Related objects to include in each transfer, repeated or comma-separated (expand[] too): ${TRANSFER_EXPANSIONS.join(', ')}. ` +
      'Each is null when the transfer has none or it is outside the caller’s scope (X-On-Behalf-Of); documents is the list of ' +
      'documents attached to the transfer (none can be attached yet: always []).',
  )

export const transferFilterShape = {
  id: idFilter('Id prefix: transfers whose id starts with this text (a tfr_ prefix; the whole id matches that transfer)'),
  sourceCustomerId: idFilter('Only transfers whose source customer is this one (cus_)'),
  customerId: idFilter('Only transfers where this customer (cus_) is the source or the destination customer'),
  counterpartyId: idFilter('Only transfers paying this counterparty (cp_)'),
  agentId: idFilter('Only transfers an agent key made (agt_)'),
  agentApprovalStatus: z.enum(AGENT_APPROVAL_STATUSES).optional().describe('Only agent transfers in this approval state'),
  clientReferenceId: z
    .string()
    .min(1)
    .max(L.clientReferenceIdMaxLength)
    .optional()
    .describe(`Only transfers with exactly this clientReferenceId (at most ${L.clientReferenceIdMaxLength} characters)`),
  flow: transferFlowSchema.optional(),
  status: transferStatusSchema.optional().describe('Only transfers in this status (FAILED never includes IN_REVIEW transfers)'),
}

/** GET /v1/transfers */
export const transferListQuery = offsetOrCursorQuery({ ...transferFilterShape, expand })
export type TransferListQuery = z.infer<typeof transferListQuery>
/** GET /v1/transfers/{id} */
export const transferReadQuery = z.object({ expand })

export type TransferFilters = { [K in keyof typeof transferFilterShape]?: z.infer<(typeof transferFilterShape)[K]> }

/** The filters and expand a page link keeps, in the order of the query's description. */
export function linkFilters(q: TransferListQuery): URLSearchParams {
  const params = new URLSearchParams()
  for (const name of Object.keys(transferFilterShape) as (keyof TransferFilters)[]) {
    const value = q[name]
    if (value !== undefined) params.set(name, value)
  }
  if (q.expand) params.set('expand', q.expand.join(','))
  return params
}
