// What every area plugin gets from the server: the shared parts of the process, nothing made for
// one slice. A slice builds what only it needs (its read-model facts, its settings) in its own
// plugin (server/areas/<slice>.ts), so adding a slice never touches server/app.ts.
import type { Kysely } from 'kysely'
import type { CommandRuntime } from '../../commands/runtime/commandRuntime.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { Resolver } from '../../webhooks/egress/resolveTarget.js'
import type { WebhookDelivery } from '../../webhooks/webhookDelivery.js'
import type { Config } from '../config.js'
import type { AuditSealing } from '../audit/auditCheckpoints.js'

export type AreaContext = {
  config: Config
  db: Kysely<ReadDatabase>
  environment: Environment
  /** The command runtime: bound deciders, `handle` and `load`, the read-your-writes wait. */
  commands: CommandRuntime
  webhooks: WebhookDelivery
  /** Opens what the read models keep sealed (customers' personal data, signing secrets, documents). */
  protection: DataProtection
  /** What time commands that depend on it (credit line fees) decide at; tests step it. */
  clock: () => Date
  /** The audit checkpoints' signing, and a bounded wait until the Merkle sealer has every event stored so far. */
  audit: { sealing: AuditSealing; caughtUp(timeoutMs: number): Promise<boolean> }
  /** Replaces DNS in the endpoint URL check (tests of names that resolve to private addresses). */
  resolver?: Resolver
}
