// The one place a projector's recorded event becomes its typed domain event. The consumer runtime
// parses every handled event against its type's schema in the catalog (events/catalog.ts) before
// a projector sees it, so the data is that type's data.
import type { DomainEvent } from '../domain/decider.js'
import type { RecordedEvent } from '../events/store/port.js'

export const parsedEvent = <E extends DomainEvent>(recorded: RecordedEvent): E => ({ type: recorded.type, data: recorded.data }) as E
