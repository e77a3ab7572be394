// Tells subscribers that something was committed: directly for appends made in this process, and
// through LISTEN/NOTIFY for appends made by other processes (the CLI beside the server, say).
import type pg from 'pg'
import type { Position } from '../port.js'
import { START } from '../port.js'
import { APPENDED_CHANNEL } from './appendBatch.js'
import type { CommitSignal } from './subscribeToAll.js'

export type CommitSignalSource = CommitSignal & {
  committed(position: Position): void
  close(): Promise<void>
}

export function createCommitSignal(pool: pg.Pool, onError: (error: unknown) => void): CommitSignalSource {
  let latest: Position = START
  // A Set so a waiter that timed out removes itself: idle subscribers must not grow it.
  const waiters = new Set<() => void>()
  let listener: pg.PoolClient | undefined
  let closed = false

  function committed(position: Position): void {
    if (position > latest) latest = position
    for (const w of [...waiters]) w()
  }

  async function listen(): Promise<void> {
    try {
      const client = await pool.connect()
      if (closed) return client.release()
      listener = client
      client.on('notification', (msg) => {
        if (msg.channel === APPENDED_CHANNEL && msg.payload) committed(msg.payload as Position)
      })
      client.on('error', (error) => {
        // Once released (by close, or by an earlier error) the client is the pool's, not ours.
        if (listener !== client) return
        onError(error)
        listener = undefined
        client.release(error)
        if (!closed) setTimeout(() => void listen(), 500)
      })
      await client.query(`LISTEN ${APPENDED_CHANNEL}`)
    } catch (error) {
      onError(error)
      if (!closed) setTimeout(() => void listen(), 500)
    }
  }
  const started = listen()

  return {
    latest: () => latest,
    wait(ms: number) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms)
        function done() {
          clearTimeout(timer)
          waiters.delete(done)
          resolve()
        }
        waiters.add(done)
      })
    },
    committed,
    async close() {
      closed = true
      await started
      const client = listener
      if (client) {
        await client.query(`UNLISTEN ${APPENDED_CHANNEL}`).catch(() => undefined)
        listener = undefined
        client.release()
      }
      committed(latest)
    },
  }
}
