// Checks the hash chains of stored events fed in commit order (the store, or an export): each event's
// hash must recompute from its content and its stream's previous hash, and each stream's revisions
// must come 0, 1, 2, ... Names the first altered, missing, reordered or unchained event. Pure: the
// caller reads; nothing here does I/O.
import type { Position, RecordedEvent } from '../store/port.js'
import { comparePositions } from '../store/positions.js'
import { chainTimeOf, contentHashOf, eventHashOf } from './eventHash.js'

export const CHAIN_VERIFY_LIMITS = {
  /** Problems kept in the report; past it they are only counted. */
  maxProblems: 100,
  /** Streams tracked at once (their last revision and hash): a bound on memory, ~200 bytes each. */
  maxStreams: 5_000_000,
} as const

export type ChainProblemKind = 'altered' | 'missing' | 'reordered' | 'unchained'

export type ChainProblem = {
  kind: ChainProblemKind
  stream: string
  revision: string
  /** The event named (absent for a missing one: it is not there). */
  eventId?: string
  position?: string
  detail: string
}

export type ChainReport = {
  consistent: boolean
  events: number
  streams: number
  /** Events whose link was recomputed and matched. */
  verified: number
  /** Events stored before the chain existed, at the start of their stream: nothing to check them against. */
  beforeChain: number
  problemCount: number
  /** The first problems, in the order met (at most CHAIN_VERIFY_LIMITS.maxProblems). */
  problems: ChainProblem[]
  /** The last event checked: where a later verify may start. */
  through: string | null
}

/**
 * A stream as checked so far. `lastHash` and `lastPosition` are those of its event stored last (the
 * highest position): the one the next event was linked to when it was written, whatever revisions a
 * tamper gave them since.
 */
type StreamState = {
  next: bigint
  lastHash: string | null
  lastPosition: Position | undefined
  chained: boolean
  /** Revisions skipped, each with the index of its "missing" report (-1: reported with the gap's first). */
  gaps?: Map<bigint, number>
  /** The report of the stream's previous event when its link failed: a reorder found next explains it. */
  failedIndex?: number
}

export type ChainVerifier = { add(event: RecordedEvent): void; report(): ChainReport }

/**
 * Events go in by commit order (all streams) or by revision (one stream). Either way a stream's
 * positions must rise with its revisions, and each event must link to the one stored before it.
 */
export function chainVerifier(): ChainVerifier {
  const streams = new Map<string, StreamState>()
  const problems: ChainProblem[] = []
  let problemCount = 0
  let events = 0
  let verified = 0
  let beforeChain = 0
  let through: string | null = null

  /** Its index in the kept list, or -1 past the list's bound. */
  const record = (problem: ChainProblem): number => {
    problemCount += 1
    if (problems.length >= CHAIN_VERIFY_LIMITS.maxProblems) return -1
    problems.push(problem)
    return problems.length - 1
  }
  const named = (e: RecordedEvent) => ({ stream: e.stream, revision: e.revision.toString(), eventId: e.id, position: e.position })
  const reordered = (e: RecordedEvent, detail: string): ChainProblem => ({ kind: 'reordered', ...named(e), detail })

  function stateOf(stream: string): StreamState {
    let state = streams.get(stream)
    if (!state) {
      if (streams.size >= CHAIN_VERIFY_LIMITS.maxStreams) throw new RangeError(`More than ${CHAIN_VERIFY_LIMITS.maxStreams} streams`)
      state = { next: 0n, lastHash: null, lastPosition: undefined, chained: false }
      streams.set(stream, state)
    }
    return state
  }

  /** Read by revision, an event stored before the stream's previous one: the two were moved. */
  function storedEarlier(e: RecordedEvent, state: StreamState, before: RecordedEvent | undefined): void {
    const problem = reordered(before ?? e, `stored after revision ${e.revision}, which was written after it`)
    // The previous event's failed link is explained: it is in another's place, not altered.
    if (state.failedIndex !== undefined && state.failedIndex >= 0 && before) problems[state.failedIndex] = problem
    else if (state.failedIndex === undefined) record(reordered(e, `stored before revision ${e.revision - 1n} of its stream`))
    state.failedIndex = undefined
    if (e.revision >= state.next) state.next = e.revision + 1n
  }

  /** Read in commit order, a revision behind its stream's: fills a gap met earlier (reordered), or repeats one. */
  function behind(e: RecordedEvent, state: StreamState): void {
    const gap = state.gaps?.get(e.revision)
    if (gap === undefined) record(reordered(e, `revision ${e.revision} again, after revision ${state.next - 1n}`))
    else {
      state.gaps!.delete(e.revision)
      // The gap was reported missing from its first revision: that report becomes this one.
      if (gap >= 0) problems[gap] = reordered(e, `stored after revision ${state.next - 1n} of its stream`)
    }
    state.lastHash = e.hash ?? null
    state.lastPosition = e.position
  }

  /** Revisions skipped before this event: missing, unless they turn up later (then reordered). */
  function ahead(e: RecordedEvent, state: StreamState): void {
    const first = state.next
    const index = record({
      kind: 'missing',
      stream: e.stream,
      revision: first.toString(),
      position: e.position,
      detail: first === e.revision - 1n ? `revision ${first} is missing` : `revisions ${first} to ${e.revision - 1n} are missing`,
    })
    state.gaps ??= new Map()
    for (let r = first; r < e.revision && state.gaps.size < CHAIN_VERIFY_LIMITS.maxProblems; r++)
      state.gaps.set(r, r === first ? index : -1)
  }

  let previousOfStream: Map<string, RecordedEvent> = new Map()

  return {
    add(e) {
      events += 1
      through = e.position
      const state = stateOf(e.stream)
      const before = previousOfStream.get(e.stream)
      previousOfStream.set(e.stream, e)
      if (state.lastPosition !== undefined && comparePositions(e.position, state.lastPosition) < 0) return storedEarlier(e, state, before)
      state.failedIndex = undefined
      if (e.revision < state.next) return behind(e, state)
      const jumped = e.revision > state.next
      if (jumped) ahead(e, state)
      state.next = e.revision + 1n
      if (e.hash === undefined) {
        // Unhashed at a stream's start: stored before the chain. After a hashed event: written around it.
        if (state.chained) record({ kind: 'unchained', ...named(e), detail: 'no hash, after hashed events of its stream' })
        else beforeChain += 1
        state.lastHash = null
        state.lastPosition = e.position
        return
      }
      // After a gap the previous hash is unknown: the link cannot be checked, the chain goes on from here.
      if (!jumped) {
        const contentHash = contentHashOf({ id: e.id, stream: e.stream, type: e.type, data: e.data, metadata: e.metadata })
        const expected = eventHashOf({
          contentHash,
          previousHash: state.lastHash,
          recordedAt: chainTimeOf(e.recordedAt),
          revision: e.revision,
        })
        if (expected === e.hash) verified += 1
        else
          state.failedIndex = record({ kind: 'altered', ...named(e), detail: 'its hash does not match its content and the hash before it' })
      }
      state.chained = true
      // The stored hash, not the recomputed one: an altered event is named once, and its successor still checks.
      state.lastHash = e.hash
      state.lastPosition = e.position
    },
    report() {
      previousOfStream = new Map()
      return {
        consistent: problemCount === 0,
        events,
        streams: streams.size,
        verified,
        beforeChain,
        problemCount,
        problems: [...problems],
        through,
      }
    },
  }
}
