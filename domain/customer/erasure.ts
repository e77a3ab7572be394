// A customer's state once its personal data is erased: every sensitive field (as its schema marks
// it) reads ERASED, as the events do once the data key is shredded. Pure, so the write side and
// the customers read model (both fold evolveCustomer, state.ts) lose the values at the erasure event.
import type { z } from 'zod'
import { ERASED, mapSensitive } from '../shared/sensitive/index.js'
import { type AssociatedEntityData, associatedEntityData } from './schemas/associatedEntity.js'
import { type BusinessProfile, businessProfile } from './schemas/businessVerification.js'
import { type IndividualProfile, individualProfile } from './schemas/individualVerification.js'

/** `value` with each sensitive leaf replaced by ERASED: the same shape, so the same type. */
function erased<S extends z.ZodType>(schema: S, value: z.infer<S>): z.infer<S> {
  return mapSensitive(schema, value, () => ERASED) as z.infer<S>
}

/** The parts of a customer's state that hold personal data. */
type PersonalParts<E extends { data: AssociatedEntityData }> = {
  phone: string | null
  individual: IndividualProfile
  business: BusinessProfile
  associated: E[]
}

export function withoutPersonalData<E extends { data: AssociatedEntityData }>(c: PersonalParts<E>): PersonalParts<E> {
  return {
    phone: c.phone === null ? null : ERASED,
    individual: erased(individualProfile, c.individual),
    business: erased(businessProfile, c.business),
    associated: c.associated.map((e) => ({ ...e, data: erased(associatedEntityData, e.data) })),
  }
}
