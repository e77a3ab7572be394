// Operator pages (an operator key): each consumer group's lag and state, the parked events, and any resource's history.
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Time } from '../components/Fields.js'
import { Table } from '../components/Table.js'
import { useLoad } from '../load.js'
import { navigate, useLocation } from '../router.js'
import { Timeline } from './timeline.js'

type Group = {
  name: string
  status: string
  failing: { since: string; attempts: number; lastError: string; eventType: string; nextAttemptAt: string } | null
  deadLetters: number
  deadLetterStreams: number
}

export function ConsumersPage(): JSX.Element {
  const consumers = useLoad(async () => (await api.GET('/v1/operator/consumers', {})).data, [])
  const groups: Group[] = consumers.data?.groups ?? []
  return (
    <section>
      <h1>
        Consumers <Badge value={consumers.data?.status} />
      </h1>
      <button type="button" class="secondary" onClick={consumers.reload}>
        Refresh
      </button>
      {consumers.error !== undefined && <ErrorView error={consumers.error} />}
      <Table
        items={groups}
        rowKey={(g) => g.name}
        empty={consumers.loading ? 'Loading…' : 'No consumer groups.'}
        columns={[
          { title: 'Group', cell: (g) => <code>{g.name}</code> },
          { title: 'State', cell: (g) => <Badge value={g.status} /> },
          {
            title: 'Failing on',
            cell: (g) =>
              g.failing ? `${g.failing.eventType}: ${g.failing.lastError} (${g.failing.attempts} attempts since ${g.failing.since})` : '—',
          },
          { title: 'Dead letters', cell: (g) => `${g.deadLetters} in ${g.deadLetterStreams} streams` },
        ]}
      />
      <h2>Lag</h2>
      {consumers.data !== undefined && (
        <p class="muted">
          Head of the log recorded <Time at={consumers.data.lag.headRecordedAt} />
          {consumers.data.lag.complete ? '' : ' (a bounded scan: lags are lower bounds)'}
        </p>
      )}
      <Table
        items={consumers.data?.lag.consumers ?? []}
        rowKey={(c) => `${c.group}:${c.name}`}
        empty={consumers.loading ? 'Loading…' : 'No consumers.'}
        columns={[
          { title: 'Consumer', cell: (c) => <code>{c.name}</code> },
          { title: 'Group', cell: (c) => c.group },
          { title: 'Behind (events)', cell: (c) => `${c.lagIsLowerBound ? '≥ ' : ''}${c.lagEvents}` },
          { title: 'Behind (s)', cell: (c) => String(c.lagSeconds) },
          { title: 'Checkpoint moved', cell: (c) => <Time at={c.checkpointMovedAt} /> },
          { title: 'Stalled', cell: (c) => (c.stalled ? <Badge value="STALLED" /> : 'no') },
        ]}
      />
    </section>
  )
}

type Parked = {
  group: string
  consumer: string
  stream: string
  eventId: string
  eventType: string
  reason: string
  failure: string | null
  attempts: number
  parkedAt: string
}

export function ParkedEventsPage(): JSX.Element {
  const parked = useLoad(async () => (await api.GET('/v1/operator/parked-events', { params: { query: {} } })).data, [])
  const letters: Parked[] = parked.data?.data ?? []
  return (
    <section>
      <h1>Parked events</h1>
      {parked.error !== undefined && <ErrorView error={parked.error} />}
      {parked.data?.truncated && (
        <p class="notice">{`Showing ${letters.length} of ${parked.data.total}: \`projections parked\` lists every one.`}</p>
      )}
      <Table
        items={letters}
        rowKey={(p) => `${p.consumer}:${p.eventId}`}
        empty={parked.loading ? 'Loading…' : 'No parked events: every consumer is keeping up.'}
        columns={[
          { title: 'Consumer', cell: (p) => `${p.group} / ${p.consumer}` },
          { title: 'Stream', cell: (p) => <code>{p.stream}</code> },
          { title: 'Event', cell: (p) => <code>{p.eventType}</code> },
          { title: 'Why', cell: (p) => (p.reason === 'behind' ? 'waits behind a failed event' : (p.failure ?? '')) },
          { title: 'Attempts', cell: (p) => String(p.attempts) },
          { title: 'Parked', cell: (p) => <Time at={p.parkedAt} /> },
        ]}
      />
    </section>
  )
}

export function ResourceHistoryPage(): JSX.Element {
  const { query } = useLocation()
  const id = query.get('id') ?? ''
  const [text, setText] = useState(id)
  return (
    <section>
      <h1>Resource history</h1>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          navigate(`/operator/history?id=${encodeURIComponent(text.trim())}`)
        }}
      >
        <label>
          Resource id{' '}
          <input name="resourceId" placeholder="tfr_…, cus_…, acc_…" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit">Show events</button>
      </form>
      {id && <Timeline resourceId={id} path="operator" />}
    </section>
  )
}
