// A rebuild or rollback refused, as the CLI error an operator or a script acts on: busy (another
// operation on the projection is running: wait, then try again; exit 3), or a rollback with nothing
// exact to roll back to (exit 1). Anything else passes through unchanged.
import { ProjectionBusyError } from '../projections/runtime/projectionLock.js'
import { RollbackRefusedError } from '../projections/runtime/rollbackProjection.js'
import { CliError, EXIT } from './output.js'

/** `done`: what the command finished before (`rebuilt`: the projections rebuilt before this one), added to the error. */
export function asRefusal(error: unknown, done: Record<string, unknown> = {}): unknown {
  if (error instanceof ProjectionBusyError)
    return new CliError('projection_busy', error.message, { projection: error.projection, ...done }, EXIT.busy)
  if (error instanceof RollbackRefusedError) return new CliError(error.reason, error.message, { projection: error.projection, ...done })
  return error
}
