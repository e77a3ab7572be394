// FX trades: transfers of flow FX in a list, and a trade in the shape its status gives it (GET /v1/fx/trades/{tradeId}).
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Json, Time } from '../components/Fields.js'
import { PagedTable } from '../components/Table.js'
import { useLoad, usePagedList } from '../load.js'
import { Money } from '../money.js'
import { Link } from '../router.js'
import { Timeline } from './timeline.js'

export function FxTradesPage(): JSX.Element {
  const list = usePagedList(() => api.paginate('/v1/transfers', { query: { flow: 'FX' } }), [])
  return (
    <section>
      <h1>FX trades</h1>
      <PagedTable
        list={list}
        rowKey={(t) => t.id}
        empty="No FX trades."
        columns={[
          { title: 'Trade', cell: (t) => <Link to={`/fx-trades/${t.id}`}>{t.id}</Link> },
          { title: 'Sells', cell: (t) => <Money amount={t.sourceAmount} /> },
          { title: 'Buys', cell: (t) => <Money amount={t.destinationAmount} /> },
          { title: 'Rate', cell: (t) => t.exchangeRate },
          { title: 'Status', cell: (t) => <Badge value={t.status} /> },
          { title: 'Created', cell: (t) => <Time at={t.createdAt} /> },
        ]}
      />
    </section>
  )
}

export function FxTradePage(props: { id: string }): JSX.Element {
  const trade = useLoad(
    async () => (await api.GET('/v1/fx/trades/{tradeId}', { params: { path: { tradeId: props.id } } })).data,
    [props.id],
  )
  const status = trade.data?.status
  const [refreshed, setRefreshed] = useState(0)
  const refresh = () => {
    trade.reload()
    setRefreshed((n) => n + 1)
  }
  return (
    <section>
      <h1>
        FX trade {props.id} <Badge value={status} />
      </h1>
      <button type="button" class="secondary" onClick={refresh}>
        Refresh
      </button>
      {trade.error !== undefined && <ErrorView error={trade.error} />}
      {trade.data !== undefined && <Json value={trade.data} />}
      <p>
        As a transfer: <Link to={`/transfers/${props.id}`}>{props.id}</Link>
      </p>
      <h2>Timeline</h2>
      <Timeline resourceId={props.id} refresh={refreshed} />
    </section>
  )
}
