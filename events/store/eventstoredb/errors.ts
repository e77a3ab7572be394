// The client's errors as the port's: a conflict becomes the port's typed error, a missing stream
// is recognised by tag as well as by class.
import { ErrorType, StreamNotFoundError, WrongExpectedVersionError as EsdbWrongExpectedVersionError } from '@eventstore/db-client'
import { type ExpectedRevision, WrongExpectedVersionError } from '../port.js'
import { toPortActualRevision } from './mappings.js'

function isEsdbError(error: unknown, type: ErrorType): error is Error & { type: ErrorType } {
  // By the `type` tag as well as by class: a second copy of the client would fail `instanceof`.
  return error instanceof Error && 'type' in error && error.type === type
}

function isWrongExpectedVersion(error: unknown): error is EsdbWrongExpectedVersionError {
  return error instanceof EsdbWrongExpectedVersionError || isEsdbError(error, ErrorType.WRONG_EXPECTED_VERSION)
}

export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || isEsdbError(error, ErrorType.STREAM_NOT_FOUND)
}

/** The client's conflict error as the port's typed one; anything else unchanged. */
export function toPortError(error: unknown, stream: string, expected: ExpectedRevision): unknown {
  if (!isWrongExpectedVersion(error)) return error
  // The caller's own `expected` rather than the client's copy, which is lossy ('any' as fallback).
  return new WrongExpectedVersionError(stream, expected, toPortActualRevision(error.actualVersion))
}
