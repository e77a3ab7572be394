// The console's routes: paths under /console/, matched in order; links change history without a reload.
import type { ComponentChildren, JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'

export const BASE = '/console'

/** The path inside the console: `/console/transfers/tfr_1` -> `/transfers/tfr_1`. */
export function consolePath(pathname: string = location.pathname): string {
  const inside = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname
  return inside === '' ? '/' : inside
}

const listeners = new Set<() => void>()

export function navigate(to: string): void {
  history.pushState(null, '', `${BASE}${to}`)
  for (const listener of listeners) listener()
}

/** The current console path and query, re-rendered on navigation and on back/forward. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0)
  useEffect(() => {
    const update = () => setTick((n) => n + 1)
    listeners.add(update)
    addEventListener('popstate', update)
    return () => {
      listeners.delete(update)
      removeEventListener('popstate', update)
    }
  }, [])
  return { path: consolePath(), query: new URLSearchParams(location.search) }
}

/** Matches `/transfers/:id` against a path; the named parts, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    const g = got[i]!
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(g)
    else if (w !== g) return undefined
  }
  return params
}

export function Link(props: { to: string; children: ComponentChildren; class?: string }): JSX.Element {
  return (
    <a
      href={`${BASE}${props.to}`}
      class={props.class}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
        event.preventDefault()
        navigate(props.to)
      }}
    >
      {props.children}
    </a>
  )
}
