// The FX settings aggregate's descriptor: one stream per organization (fxs_ + the organization id's
// random part). No public events: the organization sets them itself or through its operator.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { fxSettingsDecider } from './decider.js'
import { fxSettingsEventSchemas } from './events.js'

export const fxSettingsAggregate = defineAggregate({
  name: 'fxSettings',
  streamCategory: 'fx_settings',
  idPrefix: ID_PREFIXES.fxSettings,
  eventSchemas: fxSettingsEventSchemas,
  decider: fxSettingsDecider,
  // Nothing sensitive; the organization owns the records.
  dataSubject: 'organization',
})
