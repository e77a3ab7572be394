// A 410 Gone from a receiver disables its endpoint, through the endpoint aggregate like any other
// update, so the change is an event with an actor and shows in the endpoint's history.
//
// Not a workflow: a delivery attempt is a row of the dispatcher's, not an event, and recording the
// 410 as an event only for a workflow to turn it into the disable would put two events on the
// endpoint's stream for one fact. The dispatcher issues the command itself, before it records the
// attempt, with an id derived from the delivery (message, endpoint, generation): a dispatcher that
// dies between the two leaves the delivery leased, the next one sends it again, and a second 410
// issues the same command id, which the command runtime appends at most once. A resend or recover (a new
// generation) that meets a 410 again, after someone re-enabled the endpoint, disables it again.
import { type WebhookEndpointCommand, webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import { DomainError } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import { streams } from '../../events/streams.js'
import type { Environment } from '../../domain/shared/environment.js'
import type { Commands } from '../../commands/runtime/commandRuntime.js'

export const DISPATCHER_ACTOR = 'system:webhook-dispatcher'

export type GoneDelivery = { organizationId: string; endpointId: string; messageId: string; generation: number; environment: Environment }

/** The same delivery (message, endpoint, generation) always gives the same id. */
export const goneCommandId = (d: Pick<GoneDelivery, 'endpointId' | 'messageId' | 'generation'>): string =>
  `webhook-gone:${d.endpointId}:${d.messageId}:${d.generation}`

export async function disableGoneEndpoint(commands: Commands, input: GoneDelivery): Promise<void> {
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
    await commands.handle(webhookEndpointDecider, streams.webhookEndpoint(input.endpointId), command, {
      organizationId: input.organizationId,
      requestId,
      actor: DISPATCHER_ACTOR,
      causationId: input.messageId,
      correlationId: requestId,
      commandId: goneCommandId(input),
    })
  } catch (error) {
    // Deleted in the meantime: nothing left to disable.
    if (error instanceof DomainError && error.kind === 'not_found') return
    throw error
  }
}
