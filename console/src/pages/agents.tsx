// Agents: the list with status, and an agent with its limits per window: the limit, what is used and what remains.
import type { JSX } from 'preact'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Fields, Json, Time } from '../components/Fields.js'
import { PagedTable, Table } from '../components/Table.js'
import { useLoad, usePagedList } from '../load.js'
import { Link } from '../router.js'

export function AgentsPage(): JSX.Element {
  const list = usePagedList(() => api.paginate('/v1/agents', { query: {} }), [])
  return (
    <section>
      <h1>Agents</h1>
      <PagedTable
        list={list}
        rowKey={(a) => a.id}
        empty="No agents (agents are early access: an operator enables them per organization)."
        columns={[
          { title: 'Agent', cell: (a) => <Link to={`/agents/${a.id}`}>{a.id}</Link> },
          { title: 'Name', cell: (a) => a.name },
          { title: 'Role', cell: (a) => a.mcpRole },
          { title: 'Over limit', cell: (a) => a.overLimitAction },
          { title: 'Status', cell: (a) => <Badge value={a.status} /> },
          { title: 'Created', cell: (a) => <Time at={a.createdAt} /> },
        ]}
      />
    </section>
  )
}

export function AgentPage(props: { id: string }): JSX.Element {
  const path = { params: { path: { id: props.id } } }
  const agent = useLoad(async () => (await api.GET('/v1/agents/{id}', path)).data, [props.id])
  const limits = useLoad(async () => (await api.GET('/v1/agents/{id}/limits', path)).data, [props.id])
  const a = agent.data
  const l = limits.data
  const windows = l
    ? [
        { name: 'Per day', ...l.perDay },
        { name: 'Per month', ...l.perMonth },
      ]
    : []
  return (
    <section>
      <h1>
        Agent {props.id} <Badge value={a?.status} />
      </h1>
      {agent.error !== undefined && <ErrorView error={agent.error} />}
      {a && (
        <Fields
          rows={[
            ['Name', a.name],
            ['Customer', a.customerId && <Link to={`/customers/${a.customerId}`}>{a.customerId}</Link>],
            ['Role', a.mcpRole],
            ['Over a limit', a.overLimitAction],
          ]}
        />
      )}
      <h2>Limits {l?.currency && `(${l.currency}, minor units)`}</h2>
      {limits.error !== undefined && <ErrorView error={limits.error} />}
      {l && (
        <>
          <p>Per transaction: {l.perTransaction?.limit}</p>
          <Table
            items={windows}
            rowKey={(w) => w.name}
            columns={[
              { title: 'Window', cell: (w) => w.name },
              { title: 'Limit', cell: (w) => w.limit },
              { title: 'Used', cell: (w) => w.used },
              { title: 'Remaining', cell: (w) => w.remaining },
              { title: 'Resets', cell: (w) => <Time at={w.resetsAt} /> },
            ]}
          />
        </>
      )}
      {agent.data !== undefined && (
        <details>
          <summary>The agent as the API returns it</summary>
          <Json value={agent.data} />
        </details>
      )}
    </section>
  )
}
