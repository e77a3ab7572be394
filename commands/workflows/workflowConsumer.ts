// A workflow as a consumer of the consumer runtime: before the batch transaction that moves its
// checkpoint, it issues the commands each event causes (prepare: a transaction held open across
// commands would hold back every $all reader). A crash between a command and the checkpoint, or a
// replay from position zero, issues them again with the same ids, and the command runtime appends nothing.
import type { Consumer } from '../../events/consumers/consumer.js'
import type { Position } from '../../events/store/port.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { type Workflow, type WorkflowServices, workflowContext } from './workflow.js'

/** The workflow's checkpoint in consumer_checkpoints. */
export const workflowCheckpointName = (workflow: Workflow): string => `workflow:${workflow.name}`

export function workflowConsumer<DB>(
  workflow: Workflow,
  commands: Commands,
  services: WorkflowServices,
  onAppended: (position: Position) => void,
): Consumer<DB> {
  return {
    name: workflowCheckpointName(workflow),
    handles: workflow.handles,
    async prepare(events) {
      for (const event of events) {
        for (const command of workflow.commandsFor(event)) {
          const { position } = await command.run(commands, workflowContext(workflow, event, command), services)
          if (position !== undefined) onAppended(position)
        }
      }
    },
  }
}
