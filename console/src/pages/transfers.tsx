// Transfers: the list by status and flow, and a transfer with its legs and the timeline of its events.
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import type { ListQuery } from '../../../sdk/src/index.js'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Fields, Json, Time } from '../components/Fields.js'
import { PagedTable, Table } from '../components/Table.js'
import { useLoad, usePagedList } from '../load.js'
import { Money } from '../money.js'
import { Link } from '../router.js'
import { Timeline } from './timeline.js'

type Status = NonNullable<ListQuery<'/v1/transfers'>['status']>
const STATUSES: readonly Status[] = ['PENDING', 'PROCESSING', 'IN_REVIEW', 'COMPLETED', 'FAILED', 'CANCELLED', 'REVERSED']

export function TransfersPage(): JSX.Element {
  const [status, setStatus] = useState<Status | undefined>(undefined)
  const list = usePagedList(() => api.paginate('/v1/transfers', { query: status ? { status } : {} }), [status])
  return (
    <section>
      <h1>Transfers</h1>
      <label class="filter">
        Status{' '}
        <select value={status ?? ''} onChange={(e) => setStatus(STATUSES.find((s) => s === e.currentTarget.value))}>
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <PagedTable
        list={list}
        rowKey={(t) => t.id}
        empty="No transfers."
        columns={[
          { title: 'Transfer', cell: (t) => <Link to={`/transfers/${t.id}`}>{t.id}</Link> },
          { title: 'Flow', cell: (t) => t.flow },
          { title: 'Amount', cell: (t) => <Money amount={t.sourceAmount} /> },
          { title: 'Status', cell: (t) => <Badge value={t.status} /> },
          { title: 'Created', cell: (t) => <Time at={t.createdAt} /> },
        ]}
      />
    </section>
  )
}

export function TransferPage(props: { id: string }): JSX.Element {
  const transfer = useLoad(async () => (await api.GET('/v1/transfers/{id}', { params: { path: { id: props.id } } })).data, [props.id])
  const t = transfer.data
  // Refresh reloads the transfer and its timeline together.
  const [refreshed, setRefreshed] = useState(0)
  const refresh = () => {
    transfer.reload()
    setRefreshed((n) => n + 1)
  }
  return (
    <section>
      <h1>
        Transfer {props.id} {t && <Badge value={t.status} />}
      </h1>
      <button type="button" class="secondary" onClick={refresh}>
        Refresh
      </button>
      {transfer.error !== undefined && <ErrorView error={transfer.error} />}
      {t && (
        <>
          <Fields
            rows={[
              ['Status', <Badge value={t.status} />],
              ['Flow', t.flow],
              ['Source amount', <Money amount={t.sourceAmount} />],
              ['Destination amount', <Money amount={t.destinationAmount} />],
              ['Customer', t.sourceCustomerId && <Link to={`/customers/${t.sourceCustomerId}`}>{t.sourceCustomerId}</Link>],
              ['Client reference', t.clientReferenceId],
              ['Created', <Time at={t.createdAt} />],
              ['Updated', <Time at={t.updatedAt} />],
            ]}
          />
          <h2>Legs</h2>
          <Table
            items={t.legs ?? []}
            rowKey={(l) => l.id}
            empty="No legs."
            columns={[
              { title: '#', cell: (l) => String(l.sequence ?? '') },
              { title: 'Leg', cell: (l) => l.type },
              { title: 'Rails', cell: (l) => [l.inputRail, l.outputRail].filter(Boolean).join(' → ') },
              { title: 'Status', cell: (l) => <Badge value={l.status} /> },
              { title: 'Started', cell: (l) => <Time at={l.startedAt} /> },
              { title: 'Completed', cell: (l) => <Time at={l.completedAt} /> },
            ]}
          />
          <h2>Timeline</h2>
          <Timeline resourceId={props.id} refresh={refreshed} />
          <details>
            <summary>The transfer as the API returns it</summary>
            <Json value={transfer.data} />
          </details>
        </>
      )}
    </section>
  )
}
