// Pure mappings between the port and the client: expected revisions, positions, events.
import {
  ANY,
  NO_STREAM,
  START as ESDB_START,
  STREAM_EXISTS,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client'
import type { ExpectedRevision, NewEvent, Position, RecordedEvent } from '../port.js'
import { decodePosition, encodePosition } from '../positions.js'
import { splitChain } from './chainMetadata.js'

/** The port's expected revision as the client's. The client's constants, never -1n and friends. */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY
    case 'no_stream':
      return NO_STREAM
    case 'stream_exists':
      return STREAM_EXISTS
    default:
      // The wire protocol gives negative revisions special meanings; the port has names for those.
      if (expected < 0n) throw new RangeError(`expectedRevision must be >= 0n, got ${expected}`)
      return expected
  }
}

export function fromEsdbPosition(position: { commit: bigint; prepare: bigint }): Position {
  return encodePosition(position.commit, position.prepare)
}

export function toEsdbReadPosition(position: Position | undefined): ReadPosition {
  if (!position) return ESDB_START
  const { major, minor } = decodePosition(position)
  return { commit: major, prepare: minor }
}

/** The stream's current revision as the port reports it in a conflict. */
export function toPortActualRevision(current: CurrentRevision | undefined): bigint | 'no_stream' {
  // Errors built from gRPC metadata can carry -1 for a missing stream instead of 'no_stream'.
  return typeof current === 'bigint' && current >= 0n ? current : 'no_stream'
}

/** Server-internal events ($metadata, $>, $statsCollected, ...): never port events. */
export function isSystemEventType(type: string): boolean {
  return type.startsWith('$')
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value)
}

/** The caller's metadata, and the chain's hash and time when the adapter wrote one (chainMetadata.ts). */
function storedMetadata(stored: Record<string, unknown>, created: Date): Pick<RecordedEvent, 'metadata' | 'recordedAt' | 'hash'> {
  const { metadata, chain } = splitChain(stored)
  if (!chain) return { metadata, recordedAt: created }
  return { metadata, recordedAt: new Date(chain.at), hash: chain.hash }
}

/**
 * A resolved event as a port event, or undefined when it is not one: system events, and events
 * other writers stored as binary or as non-object JSON (this port only ever writes JSON objects).
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event
  if (!event || isSystemEventType(event.type) || !event.isJson || !isJsonObject(event.data)) return undefined
  if (!event.position)
    throw new Error(`EventStoreDB sent ${event.streamId}@${event.revision} without a position (server 22.6 or later needed)`)
  return {
    id: event.id,
    stream: event.streamId,
    revision: event.revision,
    position: fromEsdbPosition(event.position),
    type: event.type,
    data: event.data,
    ...storedMetadata(isJsonObject(event.metadata) ? event.metadata : {}, event.created),
  }
}

export function toEsdbEvent(event: NewEvent) {
  return jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata })
}
