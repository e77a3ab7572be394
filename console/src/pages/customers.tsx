// Customers: the list with each one's status, and a customer with its verification state and what it still needs.
import type { JSX } from 'preact'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Fields, Json, Time } from '../components/Fields.js'
import { PagedTable } from '../components/Table.js'
import { useLoad, usePagedList } from '../load.js'
import { Link } from '../router.js'

export function CustomersPage(): JSX.Element {
  const list = usePagedList(() => api.paginate('/v1/customers', { query: {} }), [])
  return (
    <section>
      <h1>Customers</h1>
      <PagedTable
        list={list}
        rowKey={(c) => c.id}
        empty="No customers yet."
        columns={[
          { title: 'Customer', cell: (c) => <Link to={`/customers/${c.id}`}>{c.id}</Link> },
          { title: 'Name', cell: (c) => c.customerName },
          { title: 'Type', cell: (c) => c.type },
          { title: 'Email', cell: (c) => c.email },
          { title: 'Status', cell: (c) => <Badge value={c.status} /> },
          { title: 'Created', cell: (c) => <Time at={c.createdAt} /> },
        ]}
      />
    </section>
  )
}

export function CustomerPage(props: { id: string }): JSX.Element {
  const customer = useLoad(async () => (await api.GET('/v1/customers/{id}', { params: { path: { id: props.id } } })).data, [props.id])
  const verification = useLoad(
    async () => (await api.GET('/v1/customers/{id}/verification', { params: { path: { id: props.id } } })).data,
    [props.id],
  )
  const c = customer.data
  return (
    <section>
      <h1>Customer {props.id}</h1>
      {customer.error !== undefined && <ErrorView error={customer.error} />}
      {c && (
        <Fields
          rows={[
            ['Name', c.customerName],
            ['Type', c.type],
            ['Status', <Badge value={c.status} />],
            ['Email', c.email],
            ['Created', <Time at={c.createdAt} />],
          ]}
        />
      )}
      <h2>Verification</h2>
      {verification.error !== undefined && <ErrorView error={verification.error} />}
      {verification.data !== undefined && <Json value={verification.data} />}
      {customer.data !== undefined && (
        <details>
          <summary>The customer as the API returns it</summary>
          <Json value={customer.data} />
        </details>
      )}
    </section>
  )
}
