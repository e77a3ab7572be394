// A readable stream pulled in batches (the live subscription's events).
import type { Readable } from 'node:stream'

/**
 * Pulls a readable in batches: whatever is buffered, up to `max`, waiting for at least one item.
 * Listeners stay attached for the stream's life, so a late 'error' is recorded, never unhandled.
 */
export function batchReader<T>(stream: Readable) {
  let failure: Error | undefined
  let ended = false
  let closed = false
  let notify: (() => void) | undefined
  const poke = () => {
    const resolve = notify
    notify = undefined
    resolve?.()
  }
  const end = () => {
    ended = true
    poke()
  }
  stream.on('readable', poke)
  stream.on('end', end)
  stream.on('close', end)
  stream.on('error', (error: Error) => {
    failure ??= error
    poke()
  })
  return {
    /** A batch; undefined once the stream ended or `close` was called; throws the stream's error. */
    async next(max: number): Promise<T[] | undefined> {
      for (;;) {
        if (closed) return undefined
        const items: T[] = []
        while (items.length < max) {
          const item: unknown = stream.read()
          if (item === null) break
          items.push(item as T)
        }
        if (items.length > 0) return items
        if (failure) throw failure
        if (ended) return undefined
        await new Promise<void>((resolve) => (notify = resolve))
      }
    },
    close() {
      closed = true
      poke()
    },
  }
}
