// Webhook endpoints, at parity with the Svix portal: list and create; an endpoint to edit, disable or enable, its secret
// revealed and rotated, a test event sent, failed deliveries recovered since a time, and its messages.
import type { JSX } from 'preact'
import { useState } from 'preact/hooks'
import type { paths } from '../../../sdk/src/index.js'
import { api } from '../api.js'
import { Badge } from '../components/Badge.js'
import { ErrorView } from '../components/ErrorView.js'
import { Fields, Time } from '../components/Fields.js'
import { PagedTable } from '../components/Table.js'
import { useLoad, usePagedList } from '../load.js'
import { Link, navigate } from '../router.js'
import { MessagesTable } from './webhookMessages.js'

type EventType = NonNullable<
  NonNullable<paths['/v1/webhooks/endpoints']['post']['requestBody']>['content']['application/json']['filterTypes']
>[number]

// Typed as the API's event types; the service checks each (422 with the field that is not one).
const typesOf = (text: string): EventType[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t): t is EventType => t.length > 0)

/** Runs an action, keeping its error to show and a busy flag for its button. */
function useAction(): { busy: boolean; error: unknown; run: (action: () => Promise<void>) => Promise<void> } {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  return {
    busy,
    error,
    run: async (action) => {
      setBusy(true)
      setError(undefined)
      try {
        await action()
      } catch (e) {
        setError(e)
      } finally {
        setBusy(false)
      }
    },
  }
}

type EndpointFields = { url: string; description: string; filterTypes: EventType[] }

/** The endpoint form, to add one or to edit one: URL, description, event types (comma-separated; empty: all). */
function EndpointForm(props: {
  title: string
  submitLabel: string
  initial: { url: string; description: string; filterTypes: readonly string[] }
  save: (fields: EndpointFields) => Promise<void>
}): JSX.Element {
  const [url, setUrl] = useState(props.initial.url)
  const [description, setDescription] = useState(props.initial.description)
  const [types, setTypes] = useState(props.initial.filterTypes.join(', '))
  const action = useAction()
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault()
        void action.run(() => props.save({ url, description, filterTypes: typesOf(types) }))
      }}
    >
      <h2>{props.title}</h2>
      <label>
        URL <input name="url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <label>
        Description <input name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <label>
        Event types (comma-separated; empty: all)
        <input name="filterTypes" value={types} onInput={(e) => setTypes(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={action.busy}>
        {props.submitLabel}
      </button>
      {action.error !== undefined && <ErrorView error={action.error} />}
    </form>
  )
}

export function WebhookEndpointsPage(): JSX.Element {
  const list = usePagedList(() => api.paginate('/v1/webhooks/endpoints', { query: {} }), [])
  return (
    <section>
      <h1>Webhooks</h1>
      <p>
        <Link to="/webhooks/messages">All messages</Link>
      </p>
      <PagedTable
        list={list}
        rowKey={(e) => e.id}
        empty="No endpoints yet."
        columns={[
          { title: 'Endpoint', cell: (e) => <Link to={`/webhooks/endpoints/${e.id}`}>{e.id}</Link> },
          { title: 'URL', cell: (e) => e.url },
          { title: 'Events', cell: (e) => (e.filterTypes.length ? e.filterTypes.join(', ') : 'all') },
          { title: 'State', cell: (e) => <Badge value={e.disabled ? 'DISABLED' : 'ENABLED'} /> },
          { title: 'Created', cell: (e) => <Time at={e.createdAt} /> },
        ]}
      />
      <EndpointForm
        title="Add an endpoint"
        submitLabel="Add endpoint"
        initial={{ url: '', description: '', filterTypes: [] }}
        save={async (body) => {
          const { data } = await api.POST('/v1/webhooks/endpoints', { body })
          navigate(`/webhooks/endpoints/${data.id}`)
        }}
      />
    </section>
  )
}

function Secret(props: { endpointId: string }): JSX.Element {
  const [secret, setSecret] = useState<string | undefined>(undefined)
  const action = useAction()
  const path = { params: { path: { endpointId: props.endpointId } } }
  return (
    <div class="secret">
      <h2>Signing secret</h2>
      <code data-testid="secret">{secret ?? 'whsec_••••••••'}</code>{' '}
      <button
        type="button"
        class="secondary"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            if (secret !== undefined) return setSecret(undefined)
            const { data } = await api.GET('/v1/webhooks/endpoints/{endpointId}/secret', path)
            setSecret(data.secret)
          })
        }
      >
        {secret === undefined ? 'Reveal' : 'Hide'}
      </button>{' '}
      <button
        type="button"
        class="secondary"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            if (!confirm('Rotate the secret? The old one keeps verifying for 24 hours.')) return
            await api.POST('/v1/webhooks/endpoints/{endpointId}/secret/rotate', path)
            const { data } = await api.GET('/v1/webhooks/endpoints/{endpointId}/secret', path)
            setSecret(data.secret)
          })
        }
      >
        Rotate
      </button>
      {action.error !== undefined && <ErrorView error={action.error} />}
    </div>
  )
}

export function WebhookEndpointPage(props: { id: string }): JSX.Element {
  const path = { params: { path: { endpointId: props.id } } }
  const endpoint = useLoad(async () => (await api.GET('/v1/webhooks/endpoints/{endpointId}', path)).data, [props.id])
  const action = useAction()
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const [testMessage, setTestMessage] = useState<string | undefined>(undefined)
  const [since, setSince] = useState('')
  const [messagesTick, setMessagesTick] = useState(0)
  const e = endpoint.data
  return (
    <section>
      <h1>
        Endpoint {props.id} {e && <Badge value={e.disabled ? 'DISABLED' : 'ENABLED'} />}
      </h1>
      {endpoint.error !== undefined && <ErrorView error={endpoint.error} />}
      {e && (
        <>
          <Fields
            rows={[
              ['URL', e.url],
              ['Description', e.description],
              ['Events', e.filterTypes.length ? e.filterTypes.join(', ') : 'all'],
              ['Created', <Time at={e.createdAt} />],
              ['Updated', <Time at={e.updatedAt} />],
            ]}
          />
          <div class="actions">
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  const { data } = await api.POST('/v1/webhooks/endpoints/{endpointId}/test', { ...path, body: {} })
                  setTestMessage(data.messageId)
                  setMessagesTick((n) => n + 1)
                })
              }
            >
              Send test event
            </button>
            <button
              type="button"
              class="secondary"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  await api.PUT('/v1/webhooks/endpoints/{endpointId}', { ...path, body: { disabled: !e.disabled } })
                  endpoint.reload()
                })
              }
            >
              {e.disabled ? 'Enable' : 'Disable'}
            </button>
            <button
              type="button"
              class="danger"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  if (!confirm(`Delete ${e.id}? Its deliveries stop.`)) return
                  await api.DELETE('/v1/webhooks/endpoints/{endpointId}', path)
                  navigate('/webhooks')
                })
              }
            >
              Delete
            </button>
          </div>
          {testMessage && (
            <p class="notice" role="status">
              Test event sent: message <Link to={`/webhooks/messages/${testMessage}`}>{testMessage}</Link>
            </p>
          )}
          {notice && (
            <p class="notice" role="status">
              {notice}
            </p>
          )}
          {action.error !== undefined && <ErrorView error={action.error} />}
          <Secret endpointId={e.id} />
          <EndpointForm
            title="Edit"
            submitLabel="Save"
            initial={e}
            save={async (body) => {
              await api.PUT('/v1/webhooks/endpoints/{endpointId}', { ...path, body })
              endpoint.reload()
            }}
          />
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault()
              void action.run(async () => {
                const { data } = await api.POST('/v1/webhooks/endpoints/{endpointId}/recover', {
                  ...path,
                  body: { since: new Date(since).toISOString() },
                })
                setNotice(`Recovering failed deliveries since ${data.since}`)
              })
            }}
          >
            <h2>Recover failed messages</h2>
            <label>
              Since <input name="since" type="datetime-local" required value={since} onInput={(ev) => setSince(ev.currentTarget.value)} />
            </label>
            <button type="submit" class="secondary" disabled={action.busy}>
              Recover
            </button>
          </form>
          <h2>Messages to this endpoint</h2>
          <button type="button" class="secondary" onClick={() => setMessagesTick((n) => n + 1)}>
            Refresh
          </button>
          <MessagesTable endpointId={e.id} refresh={messagesTick} />
        </>
      )}
    </section>
  )
}
