// Customer events the decider and projector specs start from, built once so both follow the event
// schema together.
import type { CustomerEvent } from '../../domain/customer/events.js'

/** Ada Lovelace, an individual customer created at `now` (defaults: organization org_a, customer cus_1). */
export function individualCreated(now: string, ids: { organizationId?: string; customerId?: string } = {}): CustomerEvent {
  return {
    type: 'CustomerCreated',
    data: {
      customerId: ids.customerId ?? 'cus_1',
      organizationId: ids.organizationId ?? 'org_a',
      type: 'INDIVIDUAL',
      customerName: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      countryCode: 'US',
      metadata: {},
      firstName: 'Ada',
      lastName: 'Lovelace',
      createdAt: now,
    },
  }
}
