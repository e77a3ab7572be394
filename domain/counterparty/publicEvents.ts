// Public events of counterparties: counterparty.created and counterparty.deleted. The payload
// names the counterparty without its address (street lines are personal data; a webhook history
// keeps only non-sensitive fields): read the counterparty for it.
import { publicEventMappersOf } from '../publicEvents.js'
import { type CounterpartyEvent, CounterpartyCreated, CounterpartyDeleted } from './events.js'

/** The fields the payload names: the address is not read at all (it may be sealed or erased here). */
const createdFields = CounterpartyCreated.pick({
  counterpartyId: true,
  customerId: true,
  name: true,
  beneficiaryType: true,
  isThirdParty: true,
  createdAt: true,
})

export const counterpartyPublicEvents = publicEventMappersOf<CounterpartyEvent>({
  CounterpartyCreated: (event) => {
    const d = createdFields.parse(event.data)
    return {
      type: 'counterparty.created',
      data: {
        id: d.counterpartyId,
        customerId: d.customerId,
        name: d.name,
        beneficiaryType: d.beneficiaryType,
        isThirdParty: d.isThirdParty,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      },
      tags: [d.counterpartyId, d.customerId],
    }
  },
  CounterpartyDeleted: (event) => {
    const d = CounterpartyDeleted.parse(event.data)
    return { type: 'counterparty.deleted', data: { id: d.counterpartyId, deletedAt: d.deletedAt }, tags: [d.counterpartyId] }
  },
})
