// After issuing a key: bring the read models up to the key's event so the API accepts the key as
// soon as the command returns, then print it. The key is shown once only, so it is printed even
// when that fails; the exit code then says the key is not usable yet.
import type { Position } from '../../events/store/port.js'
import type { Runtime } from '../../server/runtime.js'
import { CliError, type Output } from '../output.js'

export const ISSUED_KEY_LIMITS = {
  /** Longer than the store's statement timeout, the longest an older writer can hold readers back. */
  catchUpTimeoutMs: 35_000,
  retryDelayMs: 50,
} as const

/** Runs catch-up until every projector has passed `position`; false when time runs out. */
async function catchUpTo(runtime: Runtime, position: Position): Promise<boolean> {
  const deadline = Date.now() + ISSUED_KEY_LIMITS.catchUpTimeoutMs
  for (;;) {
    // Safe beside a running server: each batch locks its projector's checkpoint row.
    await runtime.runner.catchUp()
    const reached = [...runtime.runner.progress().values()].every((p) => runtime.store.comparePositions(p, position) >= 0)
    if (reached) return true
    // $all readers stop below the oldest running writer (anywhere in the cluster), so one catch-up
    // can end just short of the event appended a moment ago: retry until it becomes readable.
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, ISSUED_KEY_LIMITS.retryDelayMs))
  }
}

export async function projectIssuedKey(
  runtime: Runtime,
  out: Output,
  position: Position | undefined,
  result: Record<string, unknown>,
): Promise<void> {
  let failure: string | undefined
  try {
    if (position && !(await catchUpTo(runtime, position))) failure = `not reached within ${ISSUED_KEY_LIMITS.catchUpTimeoutMs} ms`
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error)
  }
  await out.document(result)
  if (failure !== undefined) {
    throw new CliError(
      'projection_catch_up_failed',
      `The key was created and printed, but the read models could not be brought up to it (${failure}); it works once the server's ` +
        `projections catch up`,
    )
  }
}
