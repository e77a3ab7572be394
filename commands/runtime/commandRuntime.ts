// The command runtime, created once per process (server/app.ts): deciders bound to it handle a
// write route's command end to end, the same way for every aggregate (after Emmett's
// DeciderCommandHandler): the principal and scope check, the command's origin, decide and append
// (handleCommand.ts: per-stream queue, stream lock, bounded retries), the read-your-writes wait,
// and the resource the route answers with. A command waits only for what its answer shows: the read
// models (inline on Postgres: nothing to wait for), and a workflow's effect only where its binding
// names the command in `waitsForWorkflows`, with the reason (docs/architecture.md lists them).
import type { FastifyRequest } from 'fastify'
import type { Decider, DomainEvent } from '../../domain/decider.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { principalOf } from '../../http/principal.js'
import type { CommandOrigin } from './commandOrigin.js'
import { type CommandResult, handleCommand, useSnapshots, useStreamLock } from './handleCommand.js'
import { originFrom } from './requestOrigin.js'
import type { Snapshotting } from './snapshots.js'
import { type StreamLock, noStreamLock } from './streamLock.js'

/** The `type` of a command union, for what a binding says per command. */
export type CommandType<Command> = Command extends { type: infer T extends string } ? T : never

/** How one aggregate's commands are handled; declared once beside the aggregate's routes. */
export type DeciderBinding<State, Command extends { organizationId: string }, Event extends DomainEvent, Resource> = {
  decider: Decider<State, Command, Event>
  streamOf: (command: Command) => string
  /** Commands that start a stream under an id generated for them (no read, no queue: handleCommand.ts). */
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

export type CommandRuntime = {
  store: EventStore
  /** A command outside HTTP (the CLI, timers, workflows): no wait for the read models. */
  handle<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    stream: string,
    command: Command,
    origin: CommandOrigin,
    options?: { newStream?: boolean },
  ): Promise<CommandResult<State>>
  /**
   * Resolves once the read models reflect `position` (bounded: false past the wait); `eventTypes`,
   * the types the command appended, lets it skip waiting for consumers that handle none of them.
   */
  readYourWrites(position: Position | undefined, eventTypes?: readonly string[]): Promise<boolean>
  bind<State, Command extends { organizationId: string }, Event extends DomainEvent, Resource>(
    binding: DeciderBinding<State, Command, Event, Resource>,
  ): BoundDecider<State, Command, Resource>
}

/** Commands on `store` outside HTTP (workflows, timers): the runtime's `handle` without the rest. */
export function storeCommands(store: EventStore): Pick<CommandRuntime, 'handle'> {
  return { handle: (decider, stream, command, origin, options) => handleCommand(store, decider, stream, command, origin, options) }
}

export function createCommandRuntime(options: {
  store: EventStore
  /** Cross-process turns on contended streams; noStreamLock when this process is alone on its store. */
  streamLock?: StreamLock
  /** Where aggregates with a snapshot codec keep their snapshots (snapshots.ts); none: every load folds the whole stream. */
  snapshots?: Snapshotting
  readYourWrites: (position: Position | undefined, eventTypes?: readonly string[]) => Promise<boolean>
}): CommandRuntime {
  const { store, readYourWrites } = options
  useStreamLock(store, options.streamLock ?? noStreamLock)
  useSnapshots(store, options.snapshots)
  return {
    store,
    ...storeCommands(store),
    readYourWrites,
    bind(binding) {
      const handleToResult = async (request: FastifyRequest, command: Parameters<typeof binding.streamOf>[0]) => {
        const principal = principalOf(request)
        // Routes build commands from the principal; a command for another organization is a bug.
        if (command.organizationId !== principal.organizationId) throw new Error("command organization differs from the caller's")
        binding.assertInScope?.(request, command)
        const result = await handleCommand(store, binding.decider, binding.streamOf(command), command, originFrom(request), {
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
  }
}

/** Declares an aggregate's binding with its types inferred from the decider. */
export function deciderBinding<State, Command extends { organizationId: string }, Event extends DomainEvent, Resource>(
  binding: DeciderBinding<State, Command, Event, Resource>,
): DeciderBinding<State, Command, Event, Resource> {
  return binding
}
