// A resource's events, oldest first, from the audit history route: what happened to it, when, and who asked.
import type { JSX } from 'preact'
import { api } from '../api.js'
import { Json, Time } from '../components/Fields.js'
import { PagedTable } from '../components/Table.js'
import { usePagedList } from '../load.js'

export function Timeline(props: { resourceId: string; path?: 'audit' | 'operator'; refresh?: number }): JSX.Element {
  const list = usePagedList(
    () =>
      props.path === 'operator'
        ? api.paginate('/v1/operator/resources/{id}/events', { path: { id: props.resourceId }, query: {} })
        : api.paginate('/v1/audit/resources/{id}/events', { path: { id: props.resourceId }, query: {} }),
    [props.resourceId, props.path, props.refresh],
    50,
  )
  return (
    <PagedTable
      list={list}
      rowKey={(e) => e.id}
      empty="No events."
      columns={[
        { title: 'At', cell: (e) => <Time at={e.recordedAt} /> },
        { title: 'Event', cell: (e) => <code>{e.type}</code> },
        { title: 'Revision', cell: (e) => String(e.revision) },
        { title: 'Actor', cell: (e) => e.metadata.actor },
        { title: 'Request', cell: (e) => e.metadata.requestId },
        {
          title: 'Data',
          cell: (e) => (
            <details>
              <summary>data</summary>
              <Json value={e.data} />
            </details>
          ),
        },
      ]}
    />
  )
}
