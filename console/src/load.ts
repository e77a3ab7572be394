// Data for a page: a load that re-runs when its inputs change, and a list that pulls pages from an SDK iterator.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'

export type Loaded<T> = { data?: T; error?: unknown; loading: boolean; reload: () => void }

/** Runs `load` now and whenever `inputs` change; a stale answer (inputs changed meanwhile) is dropped. */
export function useLoad<T>(load: () => Promise<T>, inputs: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let current = true
    setState((s) => ({ ...s, loading: true }))
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    )
    return () => {
      current = false
    }
  }, [...inputs, tick])
  const reload = useCallback(() => setTick((n) => n + 1), [])
  return { ...state, reload }
}

export type PagedList<T> = { items: T[]; error?: unknown; loading: boolean; done: boolean; more: () => void; reload: () => void }

/** Pulls `pageSize` items at a time from an auto-paginating iterator (the SDK's `paginate`). */
export function usePagedList<T>(open: () => AsyncIterator<T, unknown>, inputs: readonly unknown[], pageSize = 25): PagedList<T> {
  const iterator = useRef<AsyncIterator<T, unknown> | undefined>(undefined)
  const [state, setState] = useState<{ items: T[]; error?: unknown; loading: boolean; done: boolean }>({
    items: [],
    loading: true,
    done: false,
  })
  const [tick, setTick] = useState(0)

  const pull = useCallback(async (fresh: boolean) => {
    if (fresh) iterator.current = open()
    const source = iterator.current
    if (!source) return
    setState((s) => ({ ...(fresh ? { items: [], done: false } : s), loading: true, error: undefined }))
    const page: T[] = []
    try {
      let done = false
      while (page.length < pageSize) {
        const next = await source.next()
        if (next.done) {
          done = true
          break
        }
        page.push(next.value)
      }
      if (iterator.current !== source) return
      setState((s) => ({ items: fresh ? page : [...s.items, ...page], loading: false, done }))
    } catch (error) {
      if (iterator.current === source) setState((s) => ({ ...s, error, loading: false }))
    }
  }, inputs)

  useEffect(() => {
    void pull(true)
  }, [...inputs, tick])

  return {
    ...state,
    more: () => void pull(false),
    reload: () => setTick((n) => n + 1),
  }
}
