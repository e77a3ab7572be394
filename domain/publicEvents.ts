// How a stored domain event becomes a public webhook event (spec: Events). Each aggregate that
// has public events exports a mapper from `domain/<aggregate>/publicEvents.ts`; the webhook
// subscriber (webhooks/) asks every registered mapper. A stored event maps to at most one public
// event; the message id is `evt_` + the stored event's id, so replays never mint a new one.
import type { PublicEventType } from './webhook-endpoint/eventTypes.js'

export type PublicEvent = {
  type: PublicEventType
  /** The envelope's `data`: exactly the fields the spec names for the type. */
  data: Record<string, unknown>
  /** Resource ids named by the payload (customer, transfer, ...), for the messages `tag` filter. */
  tags: string[]
}

export type StoredEventView = {
  type: string
  data: Record<string, unknown>
  recordedAt: Date
}

/** Returns the public event for a stored event, or undefined when it has none. */
export type PublicEventMapper = (event: StoredEventView) => PublicEvent | undefined
