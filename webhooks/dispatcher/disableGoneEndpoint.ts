// A 410 Gone from a receiver disables its endpoint, through the endpoint aggregate like any other
// update, so the change is an event with an actor and shows in the endpoint's history.
import { type WebhookEndpointCommand, webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import { DomainError } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import type { EventStore } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import { handleCommand } from '../../commands/runtime/handleCommand.js'
import type { Environment } from '../../domain/shared/environment.js'

export const DISPATCHER_ACTOR = 'system:webhook-dispatcher'

export async function disableGoneEndpoint(
  store: EventStore,
  input: { organizationId: string; endpointId: string; messageId: string; environment: Environment },
): Promise<void> {
  const command: WebhookEndpointCommand = {
    type: 'UpdateWebhookEndpoint',
    organizationId: input.organizationId,
    endpointId: input.endpointId,
    now: new Date().toISOString(),
    environment: input.environment,
    disabled: true,
  }
  const requestId = newId('req')
  try {
    await handleCommand(store, webhookEndpointDecider, streams.webhookEndpoint(input.endpointId), command, {
      organizationId: input.organizationId,
      requestId,
      actor: DISPATCHER_ACTOR,
      causationId: input.messageId,
      correlationId: requestId,
    })
  } catch (error) {
    // Deleted in the meantime: nothing left to disable.
    if (error instanceof DomainError && error.kind === 'not_found') return
    throw error
  }
}
