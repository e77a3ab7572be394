// The command runtime, the one way to run a command: created once per process and event store
// (server/runtime.ts), it runs every command, from routes, the CLI, the scheduler, workflows and the
// webhook dispatcher, and loads every aggregate state a decision needs from another stream. Its
// parts (runCommand.ts: queue, batch, turns, locks, kept states, snapshots) are private to it, and
// what it keeps between commands lives in this object (runtimeState.ts), never in module state.
// Deciders bound to it handle a write route's command end to end, the same way for every aggregate
// (after Emmett's DeciderCommandHandler): the principal and scope check, the command's origin,
// decide and append, the read-your-writes wait, and the resource the route answers with. A command
// waits only for what its answer shows: the read models (inline on Postgres: nothing to wait for),
// and a workflow's effect only where its binding names the command in `waitsForWorkflows`, with the
// reason (docs/architecture.md lists them).
import type { FastifyRequest } from 'fastify'
import type { Decider, DomainEvent, Evolver } from '../../domain/decider.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { principalOf } from '../../http/principal.js'
import type { CommandOrigin } from './commandOrigin.js'
import type { CommandResult } from './commandResult.js'
import { loadLatest } from './loadLatest.js'
import { originFrom } from './requestOrigin.js'
import { runCommand } from './runCommand.js'
import { createRuntimeState } from './runtimeState.js'
import { type Snapshotting, drainSaves } from './snapshots.js'
import { type StreamLock, noStreamLock } from './streamLock.js'

/** The `type` of a command union, for what a binding says per command. */
export type CommandType<Command> = Command extends { type: infer T extends string } ? T : never

/** How one aggregate's commands are handled; declared once beside the aggregate's routes. */
export type DeciderBinding<State, Command extends { organizationId: string }, Event extends DomainEvent, Resource> = {
  decider: Decider<State, Command, Event>
  streamOf: (command: Command) => string
  /** Commands that start a stream under an id generated for them (no read, no queue: runCommand.ts). */
  startsStream?: (command: Command) => boolean
  /** Refuses, before anything is read, a command outside the request's scope (X-On-Behalf-Of). */
  assertInScope?: (request: FastifyRequest, command: Command) => void
  /** The resource a route answers with, from the state the command left. */
  toResource: (state: State) => Resource
  /**
   * The commands whose answer (or the read a client makes right after it, as the API documents) shows what a
   * workflow does about their events, each with the reason: these wait for the workflows too. Every other
   * command waits for the read models alone.
   */
  waitsForWorkflows?: Partial<Record<CommandType<Command>, string>>
}

export type BoundDecider<State, Command, Resource> = {
  /** Handles `command` for the request's principal and answers with the aggregate's resource. */
  handle(request: FastifyRequest, command: Command): Promise<Resource>
  /** The same, handing back the state, for answers other than the resource (a verification result, a session). */
  handleToState(request: FastifyRequest, command: Command): Promise<State>
  /** The same, handing back the state and the events the command appended (a hold's answer is its event). */
  handleToResult(request: FastifyRequest, command: Command): Promise<CommandResult<State>>
}

/** What runs commands outside HTTP (the CLI, timers, workflows, the dispatcher): no wait for the read models. */
export type Commands = {
  store: EventStore
  /** Runs `command` on `stream`: decided on the stream's state and appended, retried on a concurrent write. */
  handle<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    stream: string,
    command: Command,
    origin: CommandOrigin,
    options?: { newStream?: boolean },
  ): Promise<CommandResult<State>>
  /** The stream's current state, for a decision on another stream (facts): read after what this runtime keeps. */
  load<State, Event extends DomainEvent>(
    decider: Evolver<State, Event>,
    stream: string,
  ): Promise<{ state: State; revision: bigint | undefined }>
}

export type CommandRuntime = Commands & {
  /**
   * Resolves once the read models reflect `position` (bounded: false past the wait); `eventTypes`,
   * the types the command appended, lets it skip waiting for consumers that handle none of them.
   */
  readYourWrites(position: Position | undefined, eventTypes?: readonly string[]): Promise<boolean>
  bind<State, Command extends { organizationId: string }, Event extends DomainEvent, Resource>(
    binding: DeciderBinding<State, Command, Event, Resource>,
  ): BoundDecider<State, Command, Resource>
  /**
   * Stops using the stream lock and the snapshot store (the saves under way end first): commands
   * still run after it, alone, as a process without a shared database would.
   */
  close(): Promise<void>
}

export function createCommandRuntime(options: {
  store: EventStore
  /** Cross-process turns on contended streams; noStreamLock when this process is alone on its store. */
  streamLock?: StreamLock
  /** Where aggregates with a snapshot codec keep their snapshots (snapshots.ts); none: every load folds the whole stream. */
  snapshots?: Snapshotting
  /** The read models' wait (server/runtime.ts); none: nothing to wait for (the CLI answers from the events). */
  readYourWrites?: (position: Position | undefined, eventTypes?: readonly string[]) => Promise<boolean>
}): CommandRuntime {
  const { store } = options
  const readYourWrites = options.readYourWrites ?? (async () => true)
  const state = createRuntimeState(store, options.streamLock ?? noStreamLock, options.snapshots)
  let closing: Promise<void> | undefined
  return {
    store,
    handle: (decider, stream, command, origin, handleOptions) => runCommand(state, decider, stream, command, origin, handleOptions),
    load: (decider, stream) => loadLatest(state, decider, stream),
    readYourWrites,
    bind(binding) {
      const handleToResult = async (request: FastifyRequest, command: Parameters<typeof binding.streamOf>[0]) => {
        const principal = principalOf(request)
        // Routes build commands from the principal; a command for another organization is a bug.
        if (command.organizationId !== principal.organizationId) throw new Error("command organization differs from the caller's")
        binding.assertInScope?.(request, command)
        const result = await runCommand(state, binding.decider, binding.streamOf(command), command, originFrom(request), {
          newStream: binding.startsStream?.(command) ?? false,
        })
        const type = (command as { type?: string }).type
        const waits = type !== undefined && (binding.waitsForWorkflows as Record<string, string> | undefined)?.[type] !== undefined
        // No event types: only the read models; the command's own: the workflows that handle them too.
        await readYourWrites(result.position, waits ? result.events.map((e) => e.type) : [])
        return result
      }
      const handleToState = async (request: FastifyRequest, command: Parameters<typeof binding.streamOf>[0]) =>
        (await handleToResult(request, command)).state
      return {
        handleToResult,
        handleToState,
        handle: async (request, command) => binding.toResource(await handleToState(request, command)),
      }
    },
    close() {
      closing ??= (async () => {
        const { lock, snapshots } = state
        state.lock = noStreamLock
        state.snapshots = undefined
        if (snapshots) await drainSaves(snapshots)
        await lock.close()
      })()
      return closing
    },
  }
}

/** Declares an aggregate's binding with its types inferred from the decider. */
export function deciderBinding<State, Command extends { organizationId: string }, Event extends DomainEvent, Resource>(
  binding: DeciderBinding<State, Command, Event, Resource>,
): DeciderBinding<State, Command, Event, Resource> {
  return binding
}
