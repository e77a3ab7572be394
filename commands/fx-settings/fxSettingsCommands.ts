// How an organization's FX settings are changed: one stream per organization, so changes are
// decided in turn; the operator's CLI and the sandbox's own routes both come here.
import { type FxSettingsCommand, fxSettingsDecider, fxSettingsIdOf } from '../../domain/fx-settings/decider.js'
import { streams } from '../../events/streams.js'

export const fxSettingsStreamOf = (organizationId: string): string => streams.fxSettings(fxSettingsIdOf(organizationId))

export const fxSettingsCommands = {
  decider: fxSettingsDecider,
  streamOf: (command: FxSettingsCommand) => fxSettingsStreamOf(command.organizationId),
}
