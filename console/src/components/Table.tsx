// A list of resources as a table: one column per field the page names, a row per item, "Load more" for the next page.
import type { ComponentChildren, JSX } from 'preact'
import type { PagedList } from '../load.js'
import { ErrorView } from './ErrorView.js'

export type Column<T> = { title: string; cell: (item: T) => ComponentChildren }

export function Table<T>(props: { columns: Column<T>[]; items: T[]; empty?: string; rowKey: (item: T) => string }): JSX.Element {
  if (props.items.length === 0) return <p class="muted">{props.empty ?? 'Nothing yet.'}</p>
  return (
    <table>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c.title}>{c.title}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.items.map((item) => (
          <tr key={props.rowKey(item)}>
            {props.columns.map((c) => (
              <td key={c.title}>{c.cell(item)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function PagedTable<T>(props: {
  list: PagedList<T>
  columns: Column<T>[]
  empty?: string
  rowKey: (item: T) => string
}): JSX.Element {
  const { list } = props
  return (
    <div>
      <Table columns={props.columns} items={list.items} empty={list.loading ? 'Loading…' : props.empty} rowKey={props.rowKey} />
      {list.error !== undefined && <ErrorView error={list.error} />}
      {!list.done && list.items.length > 0 && (
        <button type="button" class="secondary" disabled={list.loading} onClick={list.more}>
          {list.loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  )
}
