// Webhook messages: every message (or one endpoint's, with its delivery status), and a message with its payload and every
// attempt (status, response body, duration), resent on demand.
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import type { ListItem } from '../../../sdk/src/index.js'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Json, Time } from '../components/Fields.js'
import { PagedTable, Table } from '../components/Table.js'
import { useLoad, usePagedList } from '../load.js'
import { Link } from '../router.js'

export function MessagesTable(props: { endpointId?: string; refresh?: number }): JSX.Element {
  const list = usePagedList(
    () => api.paginate('/v1/webhooks/messages', { query: props.endpointId ? { endpointId: props.endpointId } : {} }),
    [props.endpointId, props.refresh],
  )
  return (
    <PagedTable
      list={list}
      rowKey={(m) => m.id}
      empty="No messages yet."
      columns={[
        { title: 'Message', cell: (m) => <Link to={`/webhooks/messages/${m.id}`}>{m.id}</Link> },
        { title: 'Type', cell: (m) => <code>{m.type}</code> },
        ...(props.endpointId
          ? [
              { title: 'Delivery', cell: (m: ListItem<'/v1/webhooks/messages'>) => <Badge value={m.status} /> },
              { title: 'Attempts', cell: (m: ListItem<'/v1/webhooks/messages'>) => String(m.attemptCount ?? 0) },
            ]
          : []),
        { title: 'At', cell: (m) => <Time at={m.timestamp} /> },
      ]}
    />
  )
}

export function WebhookMessagesPage(): JSX.Element {
  return (
    <section>
      <h1>Webhook messages</h1>
      <MessagesTable />
    </section>
  )
}

export function WebhookMessagePage(props: { id: string }): JSX.Element {
  const message = useLoad(
    async () => (await api.GET('/v1/webhooks/messages/{messageId}', { params: { path: { messageId: props.id } } })).data,
    [props.id],
  )
  const [error, setError] = useState<unknown>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const m = message.data
  return (
    <section>
      <h1>Message {props.id}</h1>
      <div class="actions">
        <button type="button" class="secondary" onClick={message.reload}>
          Refresh
        </button>
        {m && (
          <button
            type="button"
            onClick={async () => {
              setError(undefined)
              try {
                const { data } = await api.POST('/v1/webhooks/messages/{messageId}/resend', {
                  params: { path: { messageId: props.id } },
                  body: {},
                })
                setNotice(`Queued again for ${data.endpointIds.join(', ') || 'no endpoint'}`)
                message.reload()
              } catch (e) {
                setError(e)
              }
            }}
          >
            Resend
          </button>
        )}
      </div>
      {message.error !== undefined && <ErrorView error={message.error} />}
      {m && (
        <>
          <p>
            <code>{m.type}</code> · <Time at={m.timestamp} />
          </p>
          {notice && (
            <p class="notice" role="status">
              {notice}
            </p>
          )}
          {error !== undefined && <ErrorView error={error} />}
          <h2>Deliveries</h2>
          <Table
            items={m.deliveries}
            rowKey={(d) => d.endpointId}
            empty="Sent to no endpoint."
            columns={[
              { title: 'Endpoint', cell: (d) => <Link to={`/webhooks/endpoints/${d.endpointId}`}>{d.endpointId}</Link> },
              { title: 'Status', cell: (d) => <Badge value={d.status} /> },
            ]}
          />
          <h2>Attempts</h2>
          <Table
            items={m.attempts}
            rowKey={(a) => a.id}
            empty="No attempt yet."
            columns={[
              { title: 'At', cell: (a) => <Time at={a.timestamp} /> },
              { title: 'Endpoint', cell: (a) => a.endpointId },
              {
                title: 'Status',
                cell: (a) => (
                  <span class={a.responseStatusCode >= 200 && a.responseStatusCode < 300 ? 'ok' : 'fail'}>{a.responseStatusCode}</span>
                ),
              },
              { title: 'Duration', cell: (a) => (a.durationMs === null ? '—' : `${a.durationMs} ms`) },
              { title: 'Trigger', cell: (a) => a.trigger },
              { title: 'Response', cell: (a) => <code class="response">{a.error ?? a.responseBody.slice(0, 200)}</code> },
            ]}
          />
          <h2>Payload</h2>
          <Json value={m.payload} />
        </>
      )}
    </section>
  )
}
