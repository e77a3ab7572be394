// Accounts: every kind in one list, and an account with its balance (available and committed) and transaction history.
import type { JSX } from 'preact'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Fields, Json, Time } from '../components/Fields.js'
import { PagedTable } from '../components/Table.js'
import { useLoad, usePagedList } from '../load.js'
import { Money } from '../money.js'
import { Link } from '../router.js'

export function AccountsPage(): JSX.Element {
  const list = usePagedList(() => api.paginate('/v1/accounts', { query: {} }), [])
  return (
    <section>
      <h1>Accounts</h1>
      <PagedTable
        list={list}
        rowKey={(a) => a.id}
        empty="No accounts yet."
        columns={[
          { title: 'Account', cell: (a) => <Link to={`/accounts/${a.id}`}>{a.id}</Link> },
          { title: 'Type', cell: (a) => a.type },
          { title: 'Customer', cell: (a) => a.customerId && <Link to={`/customers/${a.customerId}`}>{a.customerId}</Link> },
          { title: 'Holds balance', cell: (a) => (a.holdsBalance ? 'yes' : 'no') },
          { title: 'Status', cell: (a) => <Badge value={a.status} /> },
          { title: 'Created', cell: (a) => <Time at={a.createdAt} /> },
        ]}
      />
    </section>
  )
}

export function AccountPage(props: { id: string }): JSX.Element {
  const path = { params: { path: { id: props.id } } }
  const account = useLoad(async () => (await api.GET('/v1/accounts/{id}', path)).data, [props.id])
  const a = account.data
  const balance = useLoad(
    async () => (a?.holdsBalance ? (await api.GET('/v1/accounts/{id}/balance', path)).data : undefined),
    [props.id, a?.holdsBalance],
  )
  const history = usePagedList(
    () => api.paginate('/v1/accounts/{id}/balance/transactions', { path: { id: props.id }, query: {} }),
    [props.id],
  )
  return (
    <section>
      <h1>Account {props.id}</h1>
      {account.error !== undefined && <ErrorView error={account.error} />}
      {a && (
        <Fields
          rows={[
            ['Type', a.type],
            ['Status', <Badge value={a.status} />],
            ['Customer', a.customerId && <Link to={`/customers/${a.customerId}`}>{a.customerId}</Link>],
            ['Created', <Time at={a.createdAt} />],
          ]}
        />
      )}
      {a?.holdsBalance && (
        <>
          <h2>Balance</h2>
          {balance.error !== undefined && <ErrorView error={balance.error} />}
          {balance.data !== undefined && <Json value={balance.data} />}
          <h2>Transactions</h2>
          <PagedTable
            list={history}
            rowKey={(e) => e.id}
            empty="No transactions yet."
            columns={[
              { title: 'Entry', cell: (e) => e.id },
              { title: 'Type', cell: (e) => e.type },
              { title: 'Cause', cell: (e) => e.cause && `${e.cause.type ?? ''} ${e.cause.id ?? ''}` },
              { title: 'Amount', cell: (e) => <Money amount={e.amount} /> },
              { title: 'At', cell: (e) => <Time at={e.createdAt} /> },
            ]}
          />
        </>
      )}
      {account.data !== undefined && (
        <details>
          <summary>The account as the API returns it</summary>
          <Json value={account.data} />
        </details>
      )}
    </section>
  )
}
