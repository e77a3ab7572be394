// An event id as an operator passes it: the stored event's UUID (`projections status`, `projections parked`).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isEventId = (value: string): boolean => UUID.test(value)
