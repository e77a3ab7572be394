// Sensitive fields: the mark, the walk over a schema's sensitive leaves, the erasable read form.
export { ERASED, isMarkedSensitive, last4, sensitive } from './marker.js'
export { type SensitiveVisit, UnwalkableSensitiveSchemaError, hasSensitive, mapSensitive, sensitiveLeaves, sensitivePaths } from './walk.js'
export { erasable } from './erasable.js'
