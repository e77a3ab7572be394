// A resource's fields as a definition list, and any value as indented JSON.
import type { ComponentChildren, JSX } from 'preact'

export function Fields(props: { rows: [string, ComponentChildren][] }): JSX.Element {
  return (
    <dl class="fields">
      {props.rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  )
}

export function Json(props: { value: unknown }): JSX.Element {
  return <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>
}

export function Time(props: { at: string | null | undefined }): JSX.Element {
  if (!props.at) return <span class="muted">—</span>
  return <time dateTime={props.at}>{props.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time>
}
