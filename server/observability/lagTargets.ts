// Every consumer whose lag is measured (events/consumers/consumerLag.ts): each projector, each
// consumer of the workflows' group (the workflows and the timer consumers), and the webhook
// subscriber, and the Merkle sealer. Built from the runtime's groups, so the list is what the processes run.
import type { LagTarget } from '../../events/consumers/consumerLag.js'
import { MERKLE_SEALER } from '../../events/integrity/merkleSealer.js'
import { allProjectors } from '../../projections/allProjectors.js'
import { PROJECTIONS_CONSUMER } from '../../projections/runtime/projectionRunner.js'
import { WORKFLOWS_CONSUMER } from '../../commands/workflows/workflowRunner.js'
import { SUBSCRIBER_CHECKPOINT } from '../../webhooks/subscriber/storeBatch.js'
import type { Runtime } from '../runtime.js'

export function lagTargets(runtime: Pick<Runtime, 'projectionMode' | 'runner'>): LagTarget[] {
  // Inline, a projector's rows commit with the events: it is at the head by construction.
  const atHead = runtime.projectionMode === 'inline'
  return [
    ...allProjectors.map((p) => ({ name: p.name, group: PROJECTIONS_CONSUMER, handles: (type: string) => p.handles.has(type), atHead })),
    ...runtime.runner.workflows.members().map((m) => ({
      name: m.name,
      group: WORKFLOWS_CONSUMER,
      handles: (type: string) => m.handles?.has(type) ?? true,
    })),
    // It reads every event (its batches write its checkpoint whatever they hold): each one is lag until read.
    { name: SUBSCRIBER_CHECKPOINT, group: SUBSCRIBER_CHECKPOINT, handles: () => true },
    // The Merkle sealer: every event is a leaf.
    { name: MERKLE_SEALER, group: MERKLE_SEALER, handles: () => true },
  ]
}
