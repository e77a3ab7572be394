// The read-side database as one typed interface (Kysely): the union of each owner's tables, so
// every query is typed end to end. Each owner keeps its tables in its own file.
import type { AccountCountDatabase } from './accountCountSchema.js'
import type { AgentDatabase } from './agentSchema.js'
import type { AuditTreeDatabase } from './auditTreeSchema.js'
import type { AccountDatabase } from './accountSchema.js'
import type { BalanceDatabase } from './balanceSchema.js'
import type { ConsoleSessionDatabase } from './consoleSessionSchema.js'
import type { ConsumerDatabase } from './consumerSchema.js'
import type { FixedRouteDatabase } from './fixedRouteSchema.js'
import type { FxSettingsDatabase } from './fxSettingsSchema.js'
import type { IdempotencyDatabase } from './idempotencySchema.js'
import type { LedgerVerificationDatabase } from './ledgerVerificationSchema.js'
import type { LiquidityFacilityDatabase } from './liquidityFacilitySchema.js'
import type { ProjectionVersionDatabase } from './projectionVersionSchema.js'
import type { ReadModelDatabase } from './readModelSchema.js'
import type { TransferDatabase } from './transferSchema.js'
import type { TransferDraftDatabase } from './transferDraftSchema.js'
import type { InvoiceDatabase } from './invoiceSchema.js'
import type { WebhookStoreDatabase } from './webhookStoreSchema.js'

export type * from './accountCountSchema.js'
export type * from './accountSchema.js'
export type * from './agentSchema.js'
export type * from './auditTreeSchema.js'
export type * from './balanceSchema.js'
export type * from './columnTypes.js'
export type * from './consoleSessionSchema.js'
export type * from './consumerSchema.js'
export type * from './fixedRouteSchema.js'
export type * from './fxSettingsSchema.js'
export type * from './idempotencySchema.js'
export type * from './ledgerVerificationSchema.js'
export type * from './liquidityFacilitySchema.js'
export type * from './projectionVersionSchema.js'
export type * from './readModelSchema.js'
export type * from './transferSchema.js'
export type * from './transferDraftSchema.js'
export type * from './invoiceSchema.js'
export type * from './webhookStoreSchema.js'

export interface ReadDatabase
  extends
    ReadModelDatabase,
    IdempotencyDatabase,
    WebhookStoreDatabase,
    ConsumerDatabase,
    AccountDatabase,
    LiquidityFacilityDatabase,
    AccountCountDatabase,
    BalanceDatabase,
    TransferDatabase,
    FixedRouteDatabase,
    FxSettingsDatabase,
    AgentDatabase,
    TransferDraftDatabase,
    InvoiceDatabase,
    LedgerVerificationDatabase,
    AuditTreeDatabase,
    ProjectionVersionDatabase,
    ConsoleSessionDatabase {}
