// The fixed routes read model's table (projections/fixedRoutes.ts owns it; migration 0020).
import type { FixedRouteResource, FixedRouteStatus } from '../domain/fixed-route/resource.js'
import type { Json, Timestamp } from './columnTypes.js'

/** The resource as the row keeps it: everything but the expanded sweep target (joined at read time). */
export type StoredFixedRoute = Omit<FixedRouteResource, 'sweepTargetAccount'>

export interface FixedRoutesTable {
  /** The route's source account id (vba_ or inw_). */
  id: string
  organization_id: string
  /** The owner; its data key seals the resource's deposit coordinates (sealedColumns.ts). */
  customer_id: string
  sweep_target_account_id: string
  status: FixedRouteStatus
  enabled: boolean
  created_at: Timestamp
  updated_at: Timestamp
  /** The route as reads show it, without sweepTargetAccount; the account number, IBAN and beneficiary sealed. */
  resource: Json<StoredFixedRoute>
}

export interface FixedRouteDatabase {
  fixed_routes: FixedRoutesTable
}
